/**
 * The function on the table's stream: every new event, to every consumer the areas declare (`consumers`
 * in their manifests), in stage order (`consumeWith`). This module runs it under tsx (`npm start`, tests,
 * bench), loading each consumer's module by its path; the stack's bundle is generated with a literal
 * import per consumer (`infra/worker-bundles.ts`).
 */
import { type DeclaredConsumer, type EventHandler, loadConsumers } from '#shared/engine/event-consumers';
// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import { eventConsumers } from '#shared/routes';
import { consumeWith } from './consume-batch';

export const loadConsumer = async (consumer: DeclaredConsumer): Promise<EventHandler> =>
  (await import(new URL(`../../${consumer.module}`, import.meta.url).href))[consumer.handle];

export const handler = consumeWith(() => loadConsumers(eventConsumers, loadConsumer));
