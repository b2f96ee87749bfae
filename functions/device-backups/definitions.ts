/**
 * Device backups (spec: kept 30 days; visible to holders of `device-backups:view` in the organisation
 * each is filed against) and the requests that ask a device for one.
 */

import type { Kept } from '#shared/data/kept';
import { collectionPartition } from '#shared/data/stored-resource';
import { defineLifecycle, type PartyRule } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

/** The move's work (S3's copy of the upload) loads when it runs: every function reads this declaration. */
const completion = () => import('./completion');

/** Four eyes do not apply: the party is the uploader itself, the one that knows the file is whole. */
const theUploader: PartyRule = (backup, principal) =>
  (backup.rels.uploaded_by_user ?? backup.rels.uploaded_by_service_account) === principal.id
    ? null
    : 'Only the device that created the backup completes it.';

export const BACKUP_STATES = ['uploading', 'available'] as const;

export const deviceBackups = defineResource({
  type: 'device-backups',
  names: { one: 'DeviceBackup', many: 'DeviceBackups' },
  collectionPath: '/v3/orgs/{org_id}/device-backups',
  itemPath: '/v3/device-backups/{device_backup_id}',
  permission: 'device-backups',
  endpoints: {
    list: 'functions/device-backups/list.ts',
    get: true,
    create: {
      handler: 'functions/device-backups/create.ts',
      permission: 'device-backups:create',
      access: { table: 'write', buckets: { deviceBackups: 'write' } },
    },
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      device: z.string(),
      size: z.number().int().describe('Bytes.'),
      checksum: z.string().describe('The SHA-256 the upload was signed with, base64.'),
      content_type: z.string(),
      status: z.enum(BACKUP_STATES),
      completed_at: instant().nullable(),
    };
  },
  relationships: {
    user: { type: 'users' },
    uploaded_by_user: { type: 'users' },
    uploaded_by_service_account: { type: 'service-accounts' },
    request: { type: 'device-backup-requests' },
    requested_by_user: { type: 'users' },
    requested_by_service_account: { type: 'service-accounts' },
  },
  collection: {
    filters: {
      device: { kind: 'eq', path: 'attributes.device' },
      status: { kind: 'eq', path: 'attributes.status' },
      user: { kind: 'eq', path: 'rels.user' },
    },
    defaultSort: '-created_at',
    includes: ['user', 'request'],
  },
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: BACKUP_STATES,
    noun: 'backup',
    transitions: {
      complete: {
        from: ['uploading'],
        to: 'available',
        event: 'completed',
        permission: 'device-backups:create',
        parties: [theUploader],
        access: { table: 'write', buckets: { deviceBackups: 'write' } },
        changes: (_backup, { now }) => ({ attributes: { completed_at: now.toISOString() } }),
        work: async (scope, backup) => (await completion()).acceptBackup(scope, backup),
      },
    },
  }),
});

export const deviceBackupRequests = defineResource({
  type: 'device-backup-requests',
  names: { one: 'DeviceBackupRequest', many: 'DeviceBackupRequests' },
  collectionPath: '/v3/orgs/{org_id}/device-backup-requests',
  itemPath: '/v3/orgs/{org_id}/device-backup-requests/{device_backup_request_id}',
  endpoints: {
    list: { permission: 'device-backups:create' },
    get: { permission: 'device-backups:create' },
    create: { handler: 'functions/device-backups/requests/create.ts', permission: 'device-backups:request' },
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      device: z.string(),
      note: z.string().optional(),
      status: z.enum(['open', 'fulfilled']),
    };
  },
  relationships: {
    user: { type: 'users' },
    requested_by_user: { type: 'users' },
    requested_by_service_account: { type: 'service-accounts' },
    backup: { type: 'device-backups' },
  },
  // In creation order (the list's one sort), each on a local index of its own: no sort uses either.
  keys: {
    'filter-device': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#device-backup-requests',
      sk: 'device#{attributes.device}#{id}',
      about: '`filter[device]`, in creation order; requests written before issue 42 lack it until migrated',
    },
    'filter-status': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#device-backup-requests',
      sk: 'status#{attributes.status}#{id}',
      about: '`filter[status]`, in creation order; requests written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // Every filter indexed: a device (of many: read first beside a status), a status (two values,
    // counted), a creation window on the ids.
    filters: {
      device: { kind: 'eq', path: 'attributes.device', index: 'filter-device' },
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    defaultSort: '-created_at',
    includes: ['user'],
  },
});

export const RETENTION_DAYS = 30;

/** An organisation's live backups: a key range of its partition, counted by day. */
export const keptBackups = (orgId: string): Kept => ({
  orgId,
  days: RETENTION_DAYS,
  partition: { pk: collectionPartition(orgId, deviceBackups.type) },
  counter: deviceBackups.type,
});
