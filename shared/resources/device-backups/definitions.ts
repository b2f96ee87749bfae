/**
 * Device backups (spec: kept 30 days; visible to holders of `device-backups:view` in the organisation
 * each is filed against) and the requests that ask a device for one.
 */
import { createdAtSort, defineResource } from '../resource-definition';

export const deviceBackups = defineResource({
  type: 'device-backups',
  relationships: {
    organisation: { type: 'organisations' },
    user: { type: 'users' },
    uploaded_by_user: { type: 'users' },
    uploaded_by_service_account: { type: 'service-accounts' },
    request: { type: 'device-backup-requests' },
    requested_by_user: { type: 'users' },
    requested_by_service_account: { type: 'service-accounts' },
  },
  self: 'getDeviceBackup',
  collection: {
    filters: {
      device: { kind: 'eq', path: 'attributes.device' },
      status: { kind: 'eq', path: 'attributes.status' },
      user: { kind: 'eq', path: 'rels.user' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: createdAtSort,
    defaultSort: '-created_at',
    includes: ['user', 'request'],
  },
});

export const deviceBackupRequests = defineResource({
  type: 'device-backup-requests',
  relationships: {
    organisation: { type: 'organisations' },
    user: { type: 'users' },
    requested_by_user: { type: 'users' },
    requested_by_service_account: { type: 'service-accounts' },
    backup: { type: 'device-backups' },
  },
  self: 'getDeviceBackupRequest',
  collection: {
    filters: {
      device: { kind: 'eq', path: 'attributes.device' },
      status: { kind: 'eq', path: 'attributes.status' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: createdAtSort,
    defaultSort: '-created_at',
    includes: ['user'],
  },
});
