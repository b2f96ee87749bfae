import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { documents, documentVersions, folders } from './definitions';

export const area = defineArea('documents', {
  tag: 'Documents',
  feature: { description: 'Folders, documents and their versions.' },
  permissions: {
    'documents:view': 'See folders and documents, and download them.',
    'documents:manage': 'Create, upload, move, rename and delete folders and documents.',
  },
  consumers: [
    eventConsumer(
      'folder-paths',
      { module: 'functions/documents/folder-paths.ts', handle: 'keepFolderPaths' },
      'keep',
    ),
  ],
  resources: [folders, documents, documentVersions],
  routes: [
    {
      id: 'downloadDocument',
      method: 'GET',
      path: '/v3/documents/{document_id}/content',
      handler: 'functions/documents/documents/download.ts',
      answers: { status: 303 },
      permission: 'documents:view',
      access: { table: 'read', buckets: { documents: 'read' } },
      query: [],
    },
    {
      id: 'completeDocumentVersion',
      method: 'POST',
      path: '/v3/document-versions/{version_id}/complete',
      handler: 'functions/documents/versions/complete.ts',
      answers: { status: 200, resource: 'documents' },
      permission: 'documents:manage',
      access: { table: 'write', buckets: { documents: 'write' } },
    },
    {
      id: 'downloadDocumentVersion',
      method: 'GET',
      path: '/v3/document-versions/{version_id}/content',
      handler: 'functions/documents/versions/download.ts',
      answers: { status: 303 },
      permission: 'documents:view',
      access: { table: 'read', buckets: { documents: 'read' } },
      query: [],
    },
  ],
});
