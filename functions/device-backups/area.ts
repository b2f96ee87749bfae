import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { deviceBackupRequests, deviceBackups } from './definitions';

export const area = defineArea('device-backups', {
  tag: 'Device Backups',
  feature: { description: 'Backups of devices’ data.' },
  permissions: {
    'device-backups:view': 'See and download the organisation’s device backups (kept 30 days).',
    'device-backups:create': 'Act as a device: see backup requests, upload and complete backups.',
    'device-backups:request': 'Ask a device for a backup.',
  },
  resources: [deviceBackups, deviceBackupRequests],
  migrations: [
    migration(39, 'device-backup-request-filter-index', {
      module: 'functions/device-backups/migrations/request-filter-index.ts',
      step: 'requestFilterIndex',
    }),
  ],
  routes: [
    {
      id: 'downloadDeviceBackup',
      method: 'GET',
      path: '/v3/device-backups/{device_backup_id}/content',
      handler: 'functions/device-backups/download.ts',
      answers: { status: 303 },
      permission: 'device-backups:view',
      access: { table: 'read', buckets: { deviceBackups: 'read' } },
      query: [],
    },
  ],
});
