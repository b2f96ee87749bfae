/**
 * A kind of work due later, as an area declares it in its manifest (`defineArea(…, { dueWork })`): a
 * name, the module and export of the entry's work, and at most how many of its entries one run takes on
 * and runs at once.
 * The work is named, not imported, as a route's handler is: the manifests are read by every function (the
 * route table), and the work's modules (and their imports) belong only in the runner, whose bundle is
 * generated with one literal import per kind (`infra/worker-bundles.ts`).
 */
import type { DueEntry } from '../data/due-work';

export type DueWork = (entry: DueEntry, now: number) => Promise<unknown>;

export interface DueWorkKind {
  name: string;
  /** The module doing the work, from the repository root (`functions/<area>/<file>.ts`). */
  module: string;
  /** Its export that does one entry's work (a `DueWork`). */
  run: string;
  /** Entries of this kind one run takes on (the oldest); the rest wait for the next run. */
  perRun?: number;
  /** Entries of this kind run at once (16 unless it says). */
  inFlight?: number;
  /** Its area's feature, when the area may be switched off (stamped by `defineArea`): see the runner. */
  feature?: string;
}

/** Loads a kind's work: a literal import in the runner's bundle, the module's path under tsx. */
export type DueWorkLoader = (kind: DueWorkKind) => Promise<DueWork>;

export const dueWorkKind = (
  name: string,
  work: { module: string; run: string },
  limits: Pick<DueWorkKind, 'perRun' | 'inFlight'> = {},
): DueWorkKind => ({ name, ...work, ...limits });
