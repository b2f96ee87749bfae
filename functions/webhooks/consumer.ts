/** The webhook consumer: each event becomes a delivery to every subscription that takes it (`deliveries.ts`). */
import type { StoredEvent } from '#shared/data/events';
import { deliverEvent } from './deliveries';

export const deliverToSubscriptions = async (event: StoredEvent): Promise<void> => {
  await deliverEvent(event);
};
