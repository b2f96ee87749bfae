/**
 * An event consumer, as an area declares it in its manifest (`defineArea(…, { consumers })`): a name, the
 * module and export that handle one event, and the stage it runs in. The table's stream hands every new
 * event to every consumer, stage by stage (`functions/events/consume.ts`).
 * The handler is named, not imported, as a route's handler is: the manifests are read by every function
 * (the route table), and a consumer's module (and its imports) belongs only in the stream's function,
 * whose bundle is generated with one literal import per consumer (`infra/worker-bundles.ts`).
 * The stream delivers at least once: every consumer must be idempotent by event id.
 */
import type { StoredEvent } from '../data/events';

export type EventHandler = (event: StoredEvent) => Promise<void>;

/** A consumer as the stream function runs it. */
export interface EventConsumer {
  name: string;
  handle: EventHandler;
  /** Its area's feature, when the area may be switched off: events of an organisation that has it off pass it by. */
  feature?: string;
  /** `record` consumers run on a batch's subjects side by side, each subject's events in order. */
  stage?: ConsumerStage;
}

/**
 * The stages, in the order each event meets them: the permanent audit entry first (three round trips to
 * the table; a batch's subjects side by side, each subject's events in order, since a record consumer
 * keeps state per subject only); then what an event keeps on other records (a renamed role's name on its holders, a renamed
 * folder's path on its subfolders: a transaction or a Query each); then the work it starts (a new job's
 * worker: one asynchronous invocation); then deliveries to other systems last (webhooks, whose first
 * attempt may wait on a receiver). A failure in any stops the batch at that event and all are handed it
 * again, so one that had finished does nothing the second time. Within a stage, consumers run in the
 * composition root's area order.
 */
export const CONSUMER_STAGES = ['record', 'keep', 'start', 'deliver'] as const;

export type ConsumerStage = (typeof CONSUMER_STAGES)[number];

export interface DeclaredConsumer {
  name: string;
  /** The module handling events, from the repository root (`functions/<area>/<file>.ts`). */
  module: string;
  /** Its export that handles one event (an `EventHandler`). */
  handle: string;
  stage: ConsumerStage;
  /** Its area's feature, when the area may be switched off (stamped by `defineArea`). */
  feature?: string;
}

export const eventConsumer = (
  name: string,
  handler: { module: string; handle: string },
  stage: ConsumerStage,
): DeclaredConsumer => ({ name, ...handler, stage });

/** The consumers in the order the stream runs them: by stage, then in the order given (area order). */
export const inStageOrder = (consumers: readonly DeclaredConsumer[]): DeclaredConsumer[] =>
  CONSUMER_STAGES.flatMap((stage) => consumers.filter((consumer) => consumer.stage === stage));

/** Loads a consumer's handler: a literal import in the stream function's bundle, its module's path under tsx. */
export type ConsumerLoader = (consumer: DeclaredConsumer) => Promise<EventHandler>;

/** Every consumer, loaded, in order. */
export const loadConsumers = async (
  consumers: readonly DeclaredConsumer[],
  load: ConsumerLoader,
): Promise<EventConsumer[]> =>
  Promise.all(
    consumers.map(async (consumer) => ({
      name: consumer.name,
      handle: await load(consumer),
      stage: consumer.stage,
      ...(consumer.feature && { feature: consumer.feature }),
    })),
  );
