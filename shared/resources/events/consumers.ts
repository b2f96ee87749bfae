/**
 * What happens after a change: the consumers every event is handed to, in the order listed, by the
 * function on the table's stream (`functions/events/consume.ts`; locally, the stream poller). The stream
 * may hand over an event more than once: each consumer must do its work once per event id.
 */
import type { StoredEvent } from '../../data/events';

export interface EventConsumer {
  name: string;
  handle(event: StoredEvent): Promise<void>;
}

export const consumers: readonly EventConsumer[] = [];
