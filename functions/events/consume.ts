import { consumeWith } from '#shared/resources/events/consume';
import { consumers } from '#shared/resources/events/consumers';

/** The function on the table's stream: every new event, to every consumer (`consumeWith`). */
export const handler = consumeWith(consumers);
