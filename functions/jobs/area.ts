import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { migration } from '#shared/engine/migration-declarations';
import { JOB_RESTART } from './definitions';

/**
 * Jobs serve no route of their own (the exports area serves the jobs' records, each its creator's work
 * product); the area starts each job's worker when its record is created, and restarts one whose worker
 * stopped (its lease, on the due index).
 */
export const area = defineArea('jobs', {
  tag: 'Jobs',
  resources: [],
  routes: [],
  dueWork: [JOB_RESTART],
  migrations: [
    migration(10, 'jobs-by-creator', {
      module: 'functions/jobs/migrations/jobs-by-creator.ts',
      step: 'jobsByCreator',
    }),
  ],
  consumers: [
    eventConsumer('jobs', { module: 'functions/jobs/consumer.ts', handle: 'startJobWorker' }, 'start'),
  ],
});
