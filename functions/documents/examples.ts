/** A body for each of the documents area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { createHash } from 'node:crypto';
import { one, type RequestExamples } from '#shared/engine/examples';

/** The example document's text: the every-record builder uploads it, so its size and SHA-256 are these. */
export const EXAMPLE_DOCUMENT = 'valve chamber VC-101';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

export const examples: RequestExamples = {
  createFolder: (i) => ({
    data: {
      type: 'folders',
      attributes: { name: 'Drawings' },
      relationships: { parent: one('folders', i.root_folder) },
    },
  }),
  updateFolder: (i) => ({
    data: {
      type: 'folders',
      id: i.folder_id,
      attributes: { name: 'Drawings (issued)' },
      relationships: { scheme: one('schemes', i.scheme_id) },
    },
  }),
  createDocument: () => ({
    data: {
      type: 'documents',
      attributes: {
        name: 'outlet.txt',
        content_type: 'text/plain',
        size: EXAMPLE_DOCUMENT.length,
        checksum: sha256(EXAMPLE_DOCUMENT),
      },
    },
  }),
  updateDocument: (i) => ({
    data: {
      type: 'documents',
      id: i.document_id,
      attributes: { name: 'outlet-valve.txt' },
      relationships: { folder: one('folders', i.folder_id) },
    },
  }),
  createDocumentVersion: () => ({
    data: {
      type: 'document-versions',
      attributes: {
        content_type: 'text/plain',
        size: EXAMPLE_DOCUMENT.length,
        checksum: sha256(EXAMPLE_DOCUMENT),
      },
    },
  }),
  completeDocumentVersion: null,
};
