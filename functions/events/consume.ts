// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import '#shared/routes';
import { consumeWith } from '#shared/resources/events/consume';
import { consumers } from '#shared/resources/events/consumers';

/** The function on the table's stream: every new event, to every consumer (`consumeWith`). */
export const handler = consumeWith(consumers);
