/**
 * A kind of work due later, as an area declares it in its manifest (`defineArea(…, { dueWork })`): a
 * name, the entry's work, loaded only when an entry of the kind is due (an area's write modules import
 * the route table, which imports the manifests: loading them eagerly would be a cycle), and at most how
 * many of its entries one run takes on.
 */
import type { DueEntry } from '../../data/due-work';

export type DueWork = (entry: DueEntry, now: number) => Promise<unknown>;

export interface DueWorkKind {
  name: string;
  load: () => Promise<DueWork>;
  /** Entries of this kind one run takes on (the oldest); the rest wait for the next run. */
  perRun?: number;
}

export const dueWorkKind = (name: string, load: DueWorkKind['load'], perRun?: number): DueWorkKind => ({
  name,
  load,
  ...(perRun !== undefined && { perRun }),
});
