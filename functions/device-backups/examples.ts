/** A body for each of the device-backups area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { createHash } from 'node:crypto';
import { one, type RequestExamples } from '#shared/engine/examples';

/** The example backup's bytes: the every-record builder uploads them, so their size and SHA-256 are these. */
export const EXAMPLE_BACKUP = 'SQLite format 3\u0000 field records';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

export const examples: RequestExamples = {
  createDeviceBackupRequest: (i) => ({
    data: {
      type: 'device-backup-requests',
      attributes: { device: 'tablet-07' },
      relationships: { user: one('users', i.person) },
    },
  }),
  createDeviceBackup: (i) => ({
    data: {
      type: 'device-backups',
      attributes: {
        device: 'tablet-07',
        size: Buffer.byteLength(EXAMPLE_BACKUP),
        checksum: sha256(EXAMPLE_BACKUP),
      },
      relationships: {
        request: one('device-backup-requests', i.device_backup_request_id),
        user: one('users', i.person),
      },
    },
  }),
  completeDeviceBackup: null,
};
