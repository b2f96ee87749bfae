/**
 * An audit entry's sides as stored and as served. A side whose other side is null is a whole record (a
 * creation's `after`, a deletion's `before`, a record kept beside its subject) and is stored without its
 * empty relationships, which take most of an entry's kilobyte (data/empty-relationships.ts); read, they
 * are given back from the type's declaration. A change's sides name only the members that changed and
 * are kept as they are: an empty relationship there is a change.
 */
import { readPresentation, storedPresentation } from '#shared/data/events';

interface Sides {
  before: unknown;
  after: unknown;
}

const isRecord = (side: unknown): side is object => typeof side === 'object' && side !== null;

/** The type a whole side presents: its own (a record kept beside its subject), else the subject's. */
const typeOf = (side: object, subjectType: string) => (side as { type?: unknown }).type ?? subjectType;

const eachWhole = <Change extends Sides>(
  change: Change,
  subjectType: string,
  as: (side: object, type: unknown) => object,
): Change => {
  const { before, after } = change;
  if (before === null && isRecord(after)) return { ...change, after: as(after, typeOf(after, subjectType)) };
  if (after === null && isRecord(before))
    return { ...change, before: as(before, typeOf(before, subjectType)) };
  return change;
};

/** The change as an entry stores it. */
export const storedSides = <Change extends Sides>(change: Change, subjectType: string): Change =>
  eachWhole(change, subjectType, storedPresentation);

/** An entry's stored attributes as served: its whole sides with their empty relationships. */
export const servedSides = (attributes: Record<string, unknown>): Record<string, unknown> => {
  const subjectType = (attributes.subject as { type?: unknown } | undefined)?.type;
  if (typeof subjectType !== 'string' || !('before' in attributes) || !('after' in attributes))
    return attributes;
  return eachWhole(attributes as Record<string, unknown> & Sides, subjectType, readPresentation);
};
