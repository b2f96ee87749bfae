/**
 * Exports: a file of the records a caller could list, written to the exports bucket (kept 30 days).
 * `status`: `complete` (its file ready), `processing` (its job is writing it) or `failed` (with `errors`).
 */

import { byCreatorPattern, keptByCreator } from '#shared/data/kept';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const exportsDefinition = defineResource({
  type: 'exports',
  names: { one: 'Export', many: 'Exports' },
  collectionPath: '/v3/orgs/{org_id}/exports',
  itemPath: '/v3/exports/{export_id}',
  endpoints: {
    list: { handler: 'functions/exports/list.ts', permission: 'authenticated' },
    get: {
      handler: 'functions/exports/get.ts',
      permission: 'authenticated',
      access: { table: 'read', buckets: { exports: 'read' } },
    },
    create: {
      handler: 'functions/exports/create.ts',
      permission: 'authenticated',
      access: { table: 'write', buckets: { exports: 'write' } },
      answers: { status: 201, resource: 'exports', job: true },
    },
  },
  // The file's facts arrive when it is complete; `errors` says why a failed one failed.
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      subject_type: z.string().describe('The collection exported (a resource type, or `cost-rollups`).'),
      format: z.enum(['csv', 'json']),
      filters: z.record(z.string(), z.string()),
      sort: z.string().nullable(),
      status: z.enum(['processing', 'complete', 'failed']),
      file_name: z.string(),
      row_count: z.number().int().optional(),
      size: z.number().int().optional().describe('Bytes.'),
      checksum: z.string().optional().describe('SHA-256 of the file, base64.'),
      errors: z.array(z.string()).optional(),
    };
  },
  keys: { 'by-creator': byCreatorPattern('EXPORTS') },
  relationships: {
    created_by_user: { type: 'users' },
    created_by_service_account: { type: 'service-accounts' },
  },
  collection: {
    filters: {
      subject_type: { kind: 'eq', path: 'attributes.subject_type' },
      status: { kind: 'eq', path: 'attributes.status' },
    },
    defaultSort: '-created_at',
    includes: [],
  },
});

export const RETENTION_DAYS = 30;

/** A principal's live exports in an organisation: a key range of its own index, counted by day. */
export const keptExports = (orgId: string, principalId: string) =>
  keptByCreator('exports', exportsDefinition.keys['by-creator'], RETENTION_DAYS, orgId, principalId);
