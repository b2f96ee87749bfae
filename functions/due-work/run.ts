/**
 * The due-work runner: invoked every minute (one EventBridge rule in AWS; one timer in `npm start`), it
 * does the work whose time has come, of every kind the areas declare (`dueWork` in their manifests): jobs
 * whose worker died, webhook retries, automatic sign-outs, expiry warnings, recurring runs. Not a route.
 * This module runs it under tsx (`npm start`, tests, bench), loading each kind's module by its path; the
 * stack's bundle is generated with a literal import per kind (`infra/worker-bundles.ts`).
 */
import type { DueWork, DueWorkKind } from '#shared/engine/due-work-kind';
import { runDueWork } from '#shared/engine/due-work-runner';
import { dueWorkKinds } from '#shared/routes';

export const loadDueWork = async (kind: DueWorkKind): Promise<DueWork> =>
  (await import(new URL(`../../${kind.module}`, import.meta.url).href))[kind.run];

/** One run at `now` (tests move it, for their own organisation's entries alone). */
export const runDue = (now = Date.now(), only: Parameters<typeof runDueWork>[3] = {}) =>
  runDueWork(dueWorkKinds, loadDueWork, now, only);

export const handler = async (_event?: unknown, now = Date.now()) => runDue(now);
