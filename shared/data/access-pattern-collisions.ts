/**
 * When two access patterns could meet. DynamoDB reads a partition by its whole key and ranges over sort
 * keys by their beginning, so a pattern's prefix is its partition key and the literal head of its sort key
 * (the text before its first part): two patterns on one index collide when their partitions can be the
 * same key and one's sort-key head begins the other's. Then a Query for one reads the other's items (a
 * collection's `{id}` has an empty head and owns its whole partition), or a key of one is a key of the other.
 *
 * Templates are compared by `#`-separated segments: a part in the middle of a key stands for one segment
 * (ids, organisation ids, type names and ISO dates hold no `#`), a part ending a partition key for the rest
 * of it. A part named as a type (`{parent_type}`) is a type's name, lower-case kebab, and so never one of
 * the upper-case words fixed keys begin with (`GEO`, `EVENTS`): that is what keeps children's partitions
 * apart from them.
 */
import type { AccessPattern } from './access-patterns';

/** A literal segment, `type` for one that is a type's name, or null for one holding any other part. */
type Segment = string | { type: true } | null;

const TYPE_PART = /^\{[a-z_]*type\}$/;
const TYPE_NAME = /^[a-z][a-z0-9-]*$/;

const segmentsOf = (template: string): Segment[] =>
  template === ''
    ? []
    : template
        .split('#')
        .map((segment) =>
          TYPE_PART.test(segment) ? { type: true } : segment.includes('{') ? null : segment,
        );

/** Whether two segments can be the same text. */
const sameSegment = (x: Segment, y: Segment): boolean => {
  if (x === null || y === null) return true;
  if (typeof x === 'object') return typeof y === 'object' || TYPE_NAME.test(y);
  if (typeof y === 'object') return TYPE_NAME.test(x);
  return x === y;
};

/** Whether two partition keys can be the same text. */
const samePartition = (a: Segment[], b: Segment[]): boolean => {
  if (a.length === 0 || b.length === 0) return a.length === b.length;
  const [x, ...restA] = a;
  const [y, ...restB] = b;
  // A part ending a partition key takes whatever is left of the other (at least one segment).
  if ((x === null && restA.length === 0) || (y === null && restB.length === 0)) return true;
  return sameSegment(x as Segment, y as Segment) && samePartition(restA, restB);
};

/** The literal head of a sort key: its segments up to the first that holds a part. */
const headOf = (template: string): string[] => {
  const segments = segmentsOf(template);
  const first = segments.findIndex((segment) => typeof segment !== 'string');
  return (first === -1 ? segments : segments.slice(0, first)) as string[];
};

const begins = (shorter: string[], longer: string[]) => shorter.every((segment, i) => segment === longer[i]);

export const collide = (a: AccessPattern, b: AccessPattern): boolean => {
  if (a.index !== b.index || !samePartition(segmentsOf(a.pk), segmentsOf(b.pk))) return false;
  // An LSI entry lives in its record's partition: only another sort on the same index meets it.
  const [headA, headB] = [headOf(a.sk), headOf(b.sk)];
  return headA.length <= headB.length ? begins(headA, headB) : begins(headB, headA);
};

/** Every pair of the patterns that collide, each once. */
export const collisions = <P extends AccessPattern>(patterns: readonly P[]): [P, P][] =>
  patterns.flatMap((a, i) => patterns.slice(i + 1).flatMap((b): [P, P][] => (collide(a, b) ? [[a, b]] : [])));
