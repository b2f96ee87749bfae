// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import '#shared/routes';
import { consumeWith } from './consume-batch';
import { consumers } from './consumers';

/** The function on the table's stream: every new event, to every consumer (`consumeWith`). */
export const handler = consumeWith(consumers);
