/**
 * A kind of job, as an area declares it in its manifest (`defineArea(…, { jobs })`): its name (a job's
 * `attributes.kind`) and the module and export of its work. The job worker (`functions/jobs/worker.ts`)
 * takes a job under a lease and runs its kind's work in chunks from the last checkpoint.
 * The work is named, not imported, as a route's handler is: the manifests are read by every function (the
 * route table), and a kind's module (and its imports) belongs only in the worker, whose bundle is
 * generated with one literal import per kind (`infra/worker-bundles.ts`).
 */
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import type { WriteOp } from '../data/transaction';

/** A problem that ends a job (a file that is gone, a column that is missing): shown in its `errors`. */
export interface JobError {
  detail: string;
  /** Where in its input, when it is one place (a CSV line). */
  source?: { line?: number; pointer?: string };
}

export class JobFailed extends Error {
  constructor(
    readonly errors: JobError[],
    /** The writes that record the failure beside the job's (the import record's own status). */
    readonly ops: readonly WriteOp[] = [],
  ) {
    super(errors.map((e) => e.detail).join('; '));
  }
}

export interface Progress {
  checkpoint: Record<string, unknown>;
  processed: number;
  total: number | null;
}

export interface JobContext {
  scope: Scope;
  job: StoredResource;
  /** Where this invocation starts: the last checkpoint saved. */
  checkpoint: Record<string, unknown>;
  /** Saves a checkpoint, with the writes that must land exactly once with it. */
  save(next: Progress, ops?: readonly WriteOp[]): Promise<void>;
  /** True once this invocation has had its time: save, and return 'yield'. */
  timeUp(): boolean;
}

export interface JobResult {
  processed: number;
  total: number | null;
  /** The record's result relationships (`location_import`) and the writes that finish with it. */
  rels?: Record<string, string>;
  ops?: readonly WriteOp[];
}

/** A kind's work, as its module exports it. */
export interface JobKind {
  /** Runs chunks from `checkpoint` until the job is done ('yield' when time is up first). */
  run(context: JobContext): Promise<JobResult | 'yield'>;
  /** The writes that record a failure the kind did not see coming (attempts used up) beside the job's. */
  failed?(scope: Scope, job: StoredResource, errors: JobError[]): Promise<WriteOp[]>;
}

export interface DeclaredJobKind {
  name: string;
  /** The module doing the work, from the repository root (`functions/<area>/<file>.ts`). */
  module: string;
  /** Its export that does the work (a `JobKind`). */
  kind: string;
}

export const jobKind = (name: string, work: { module: string; kind: string }): DeclaredJobKind => ({
  name,
  ...work,
});

/** Loads a kind's work: a literal import in the worker's bundle, its module's path under tsx. */
export type JobKindLoader = (kind: DeclaredJobKind) => Promise<JobKind>;

/** A kind's work by its name, each loaded at its first job (undefined for a kind no area declares). */
export const jobKindsFrom = (kinds: readonly DeclaredJobKind[], load: JobKindLoader) => {
  const declared = new Map(kinds.map((kind) => [kind.name, kind]));
  const loaded = new Map<string, Promise<JobKind>>();
  return (name: string): Promise<JobKind | undefined> => {
    const kind = declared.get(name);
    if (!kind) return Promise.resolve(undefined);
    const work = loaded.get(name) ?? load(kind);
    loaded.set(name, work);
    return work;
  };
};
