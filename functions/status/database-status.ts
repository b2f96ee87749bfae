/** The service's own health for `GET /v3/status`: whether the table answers a read. */
import { pingTable } from '#shared/data/repository';

export const databaseStatus = (): Promise<'available' | 'unavailable'> =>
  pingTable().then(
    () => 'available' as const,
    () => 'unavailable' as const,
  );
