import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { migration } from '#shared/engine/migration-declarations';
import { documents, folders } from './definitions';
import { documentVersions } from './versions/definition';

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
  migrations: [
    migration(11, 'folder-paths-and-tallies', {
      module: 'functions/documents/migrations/folder-tallies.ts',
      step: 'folderTallies',
    }),
    // 19 and 20 at merge: 14–18 are other branches' (the runner refuses a gap).
    migration(20, 'document-filter-index', {
      module: 'functions/documents/migrations/document-filter-index.ts',
      step: 'documentFilterIndex',
    }),
    migration(21, 'folder-filter-index', {
      module: 'functions/documents/migrations/folder-filter-index.ts',
      step: 'folderFilterIndex',
    }),
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
