import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';

/**
 * Jobs serve no route of their own (the exports area serves the jobs' records, each its creator's work
 * product); the area starts each job's worker when its record is created.
 */
export const area = defineArea('jobs', {
  tag: 'Jobs',
  resources: [],
  routes: [],
  consumers: [
    eventConsumer('jobs', { module: 'functions/jobs/consumer.ts', handle: 'startJobWorker' }, 'start'),
  ],
});
