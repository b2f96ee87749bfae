/**
 * What an audit entry shows of a change: the members of the record that changed, as they were and as
 * they became. Members are the record's top-level attributes and relationships (JSON:API's "fields");
 * its `meta` (version, timestamps) is left out, since it moves with every write and the entry's own
 * `occurred_at` says when. An entry that repeated the whole record twice would hide a one-field change
 * in a page of unchanged ones.
 */
import { isDeepStrictEqual } from 'node:util';

/** A record as the API shows it, or the part of it an entry shows. */
export interface Members {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

const SECTIONS = ['attributes', 'relationships'] as const;

/** A record's members, without its type, id, meta and links. */
export const membersOf = (state: Members): Members => ({
  attributes: state.attributes ?? {},
  relationships: state.relationships ?? {},
});

/**
 * The members that differ between two states of a record: `before` holds their old values, `after`
 * their new ones (null for a member that one side lacks); a section with no change is left out, so an
 * unchanged record gives `{}` on both sides. No state before (a creation) is `before: null` and every
 * member after; no state after (a deletion) is every member before and `after: null`.
 */
export const changedMembers = (
  was: Members | null,
  now: Members | null,
): { before: Members | null; after: Members | null } => {
  if (!was || !now) return { before: was && membersOf(was), after: now && membersOf(now) };
  const before: Members = {};
  const after: Members = {};
  for (const section of SECTIONS) {
    const [old, next] = [was[section] ?? {}, now[section] ?? {}];
    const names = [...new Set([...Object.keys(old), ...Object.keys(next)])].filter(
      (name) => !isDeepStrictEqual(old[name] ?? null, next[name] ?? null),
    );
    if (names.length === 0) continue;
    before[section] = Object.fromEntries(names.map((name) => [name, old[name] ?? null]));
    after[section] = Object.fromEntries(names.map((name) => [name, next[name] ?? null]));
  }
  return { before, after };
};

/** The names of the members a change touched (`attributes.name`), for an entry too large to hold them. */
export const memberNames = (change: Members | null): string[] =>
  SECTIONS.flatMap((section) => Object.keys(change?.[section] ?? {}).map((name) => `${section}.${name}`));
