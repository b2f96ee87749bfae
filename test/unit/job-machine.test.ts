/**
 * Jobs' declared machine (issue 41, item 1): only the worker moves a job, so no client route is derived
 * and a client's `allowed_transitions` is empty; the worker's own move goes through the machine's check.
 */
import { describe, expect, it } from 'vitest';
import { jobs } from '#functions/jobs/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import { allowedTransitions, workerRefusal } from '#shared/engine/lifecycle';
import { routes } from '#shared/routes';

const job = (status: string) =>
  ({
    id: 'j',
    org_id: 'o',
    type: 'jobs',
    attributes: { status },
    rels: {},
    meta: {},
    version: 1,
  }) as unknown as StoredResource;

describe('a job is moved by its worker only', () => {
  it('no route is derived from the worker’s moves', () => {
    expect(routes.filter((route) => route.path.startsWith('/v3/jobs/{job_id}/'))).toEqual([]);
  });

  it('a client sees no move it may ask for', () => {
    expect(allowedTransitions(jobs.lifecycle, undefined, job('queued'), null, undefined)).toEqual([]);
  });

  it('the worker may finish a queued job, never a finished one', () => {
    expect(workerRefusal(jobs.lifecycle, 'succeed', job('queued'))).toEqual([]);
    expect(workerRefusal(jobs.lifecycle, 'fail', job('succeeded'))).toEqual([
      'A job succeeded cannot be failed.',
    ]);
  });
});
