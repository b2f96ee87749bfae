/**
 * The routes bench's device backups (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): asked of a person's tablet, then uploaded and completed by it (one in eight not).
 */
import { type BenchSeeds, declared, idsOf, one, town, two, uploadThen } from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 200,
      steps: (c) => {
        const ids = idsOf(c);
        const user = (i: number) => ids('users', i);
        const backup = (i: number) => `SQLite format 3\u0000 field records of tablet ${two(i)}`;
        return [
          {
            route: 'createDeviceBackupRequest',
            data: (i) => ({
              attributes: { device: `tablet-${two(i)}`, note: `Before the ${town(i)} tablet is re-imaged.` },
              relationships: { user: one('users', user(i)) },
            }),
          },
          {
            route: 'createDeviceBackup',
            data: (i) => ({
              attributes: { device: `tablet-${two(i)}`, ...declared(backup(i), 'application/vnd.sqlite3') },
              relationships: {
                request: one('device-backup-requests', ids('device-backup-requests', i)),
                user: one('users', user(i)),
              },
            }),
            finish: async (answer, i) => {
              if (i % 8 === 7) return;
              await uploadThen(
                c,
                answer.data.meta.upload,
                backup(i),
                `/v3/device-backups/${answer.data.id}/complete`,
              );
            },
          },
        ];
      },
    },
  ],
};
