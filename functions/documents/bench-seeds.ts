/**
 * The routes bench's documents (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): folders (six roots, one per scheme, with four subfolders each), a root's documents
 * (one in ten never uploaded) and a document's versions: each file uploaded to its presigned URL, then
 * completed.
 */
import {
  type BenchSeeds,
  type Doc,
  declared,
  idsOf,
  inParallel,
  N,
  one,
  PARALLEL,
  pick,
  town,
  upload,
  uploadThen,
  WORK,
} from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 190,
      steps: (c) => {
        const ids = idsOf(c);
        const documentText = (i: number, version = 1) =>
          `${pick(WORK, i)}, ${town(i)}: ${pick(['method statement', 'risk assessment', 'drawing register'], i)} revision ${version}.`;
        const versionUploads: Doc[] = [];
        return [
          {
            route: 'createFolder',
            count: 6,
            into: 'root-folders',
            data: (i) => ({
              attributes: { name: `${pick(WORK, i)}, ${town(i)}` },
              relationships: { scheme: one('schemes', ids('schemes', i)) },
            }),
          },
          {
            route: 'createFolder',
            count: 24,
            into: 'sub-folders',
            data: (i) => ({
              attributes: {
                name: pick(['Drawings', 'Method statements', 'Permits', 'Photographs'], Math.floor(i / 6)),
              },
              relationships: { parent: one('folders', ids('root-folders', i)) },
            }),
          },
          {
            route: 'createDocument',
            params: () => ({ folder_id: ids('root-folders') }),
            data: (i) => ({
              attributes: {
                name: `${pick(['Method statement', 'Risk assessment', 'Drawing register'], i)} ${town(i)}.txt`,
                ...declared(documentText(i)),
              },
            }),
            finish: async (answer, i) => {
              if (i % 10 === 9) return;
              const upload = answer.data.meta.upload;
              await uploadThen(
                c,
                upload,
                documentText(i),
                `/v3/document-versions/${upload.version}/complete`,
              );
            },
          },
          {
            // Declared one at a time (each is the document's next number), uploaded all at once, then completed
            // in order: the newest is the current one.
            route: 'createDocumentVersion',
            count: N - 1,
            serial: true,
            params: () => ({ document_id: ids('documents') }),
            data: (i) => ({ attributes: declared(documentText(0, i + 2)) }),
            finish: async (answer, i) => {
              versionUploads[i] = answer.data.meta.upload;
            },
          },
          {
            route: 'completeDocumentVersion',
            count: N - 1,
            serial: true,
            status: 200,
            into: 'completed-versions',
            before: () =>
              inParallel(N - 1, PARALLEL, (i) => upload(versionUploads[i], documentText(0, i + 2))),
            params: (i) => ({ version_id: ids('document-versions', i) }),
          },
        ];
      },
    },
  ],
};
