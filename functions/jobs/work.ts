/**
 * The job worker (invoked asynchronously: by the event consumer when a job is created, by the due-work runner,
 * and by itself to go on with a job in a fresh invocation). Not a route: no request waits on it.
 * It runs the kinds the areas declare (`jobs` in their manifests). This module runs it under tsx
 * (`npm start`, tests, bench), loading each kind's module by its path; the stack's bundle is generated
 * with a literal import per kind (`infra/worker-bundles.ts`).
 */
import { type DeclaredJobKind, type JobKind, jobKindsFrom } from '#shared/engine/job-kinds';
// Every declaration and route registered first: the engine finds types and routes by name (shared/routes.ts).
import { jobKinds } from '#shared/routes';
import { type JobRef, runJob } from './worker';

export const loadJobKind = async (kind: DeclaredJobKind): Promise<JobKind> =>
  (await import(new URL(`../../${kind.module}`, import.meta.url).href))[kind.kind];

const kindOf = jobKindsFrom(jobKinds, loadJobKind);

export const handler = async (event: JobRef) => runJob(event, kindOf);
