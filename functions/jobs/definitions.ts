/**
 * Jobs (issue 18): work longer than a request (a large location import, an export) is a job. The request
 * answers 202 with it; a worker does it in bounded chunks, saving a checkpoint after each, and the job
 * shows its status, progress, errors and result. A job is its creator's, like an export: anyone else gets
 * 404. The record changes twice (created; succeeded or failed: the events a client may subscribe to);
 * its status and progress in between live in its working state (`shared/data/jobs.ts`), shown with it
 * (`working-state.ts`).
 */

import type { Principal } from '#shared/auth/principal';
import { JOB_DUE_KIND, jobStateKey } from '#shared/data/job-keys';
import { byCreatorPattern, keptByCreator } from '#shared/data/kept';
import type { StoredResource } from '#shared/data/stored-resource';
import { dueWorkKind } from '#shared/engine/due-work-kind';
import { defineLifecycle } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

/** A job (and its state) is kept 30 whole days from the day it was requested (see data/retention.ts). */
export const JOB_RETENTION_DAYS = 30;

/**
 * Jobs' work due later: a job whose worker's lease ran out (it died, or its start was lost) gets a new
 * worker, which resumes from the last checkpoint. The job's state is its own entry (`shared/data/jobs.ts`):
 * each lease it takes or renews moves its due time. 100 a run. Declared with the type, as the jobs area's
 * declarations are what the areas serving jobs (exports) name.
 */
export const JOB_RESTART = dueWorkKind(
  JOB_DUE_KIND,
  { module: 'functions/jobs/worker.ts', run: 'restartJob' },
  { perRun: 100 },
);

/** A principal's jobs in an organisation: a key range of its own index, counted by day. */
export const keptJobs = (orgId: string, principalId: string) =>
  keptByCreator('jobs', jobs.keys['by-creator'], JOB_RETENTION_DAYS, orgId, principalId);

/** A job is its creator's: anyone else gets 404, as for a record they cannot see. */
export const isJobCreator = (job: StoredResource, principal: Principal | null) =>
  job.rels.created_by_user === principal?.id || job.rels.created_by_service_account === principal?.id;

/** A job's working state is read with the first job read: every function reads this declaration. */
const workingState = () => import('./working-state');

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;

export const jobs = defineResource({
  type: 'jobs',
  tag: 'Jobs',
  names: { one: 'Job', many: 'Jobs' },
  collectionPath: '/v3/orgs/{org_id}/jobs',
  itemPath: '/v3/jobs/{job_id}',
  endpoints: {
    list: { handler: 'functions/jobs/list.ts', permission: 'authenticated' },
    get: { handler: 'functions/jobs/get.ts', permission: 'authenticated' },
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      kind: z
        .string()
        .describe('What the job does (`location-import`, `export`); a relationship names its record.'),
      status: z.enum(JOB_STATES),
      progress: z.strictObject({
        processed: z.number().int(),
        total: z.number().int().nullable().describe('Null until the job knows how much there is.'),
      }),
      errors: z.array(
        z.strictObject({
          detail: z.string(),
          source: z
            .strictObject({ line: z.number().int().optional(), pointer: z.string().optional() })
            .optional(),
        }),
      ),
      finished_at: instant().optional(),
    };
  },
  keys: { 'by-creator': byCreatorPattern('JOBS') },
  relationships: {
    created_by_user: { type: 'users' },
    created_by_service_account: { type: 'service-accounts' },
    location_import: { type: 'location-imports' },
    export: { type: 'exports' },
  },
  collection: {
    filters: {
      kind: { kind: 'eq', path: 'attributes.kind' },
      status: { kind: 'eq', path: 'attributes.status' },
    },
    defaultSort: '-created_at',
    includes: ['location_import', 'export'],
  },
  derive: async (scope, items) => (await workingState()).withState(scope, items),
  // Read with the job though only a queued one needs it: an item more in the batch, not a round trip.
  derivedKeys: (_orgId, id) => [jobStateKey(id)],
  /**
   * Only its worker moves a job (`worker.ts`): no client route, so `allowed_transitions` is empty; the
   * stored state is queued until it finishes (running is its working state's, shown by `withState` in `working-state.ts`).
   */
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: JOB_STATES,
    noun: 'job',
    transitions: {
      succeed: { from: ['queued', 'running'], to: 'succeeded', event: 'succeeded', by: 'worker' },
      fail: { from: ['queued', 'running'], to: 'failed', event: 'failed', by: 'worker' },
    },
  }),
});
