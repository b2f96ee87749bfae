/**
 * The keys of work due later (`due-work.ts` has the entries and the runner's read): apart so a record
 * whose own item carries the due keys (a job's state under its lease: `jobs.ts`) composes them without
 * bringing the entries' writes and reads into every function's start-up chunk.
 */
import { declareAccessPatterns, indexKeysFrom } from './access-patterns';

export const DUE_SHARDS = 4;

export const dueKeyPatterns = /* @__PURE__ */ declareAccessPatterns('data/due-work', {
  due: {
    index: 'gsi1',
    pk: 'DUE#{shard}',
    sk: '{due}#{kind}#{id}',
    about:
      "work due later, every kind: shard the last hex digit of the record's id mod 4, due ISO 8601; carried by a job's state (`job-restart`, due when its lease runs out) and a webhook delivery (`webhook-delivery`, its next attempt), which move it with their own conditional writes, a notification acknowledgement (`notification-ack-escalation`, until acknowledged or escalated), a notification digest window (`notification-digest`, due at its end, until mailed), and by due-work entry items; the one runner reads every shard up to now",
  },
  entry: {
    index: 'table',
    pk: 'ORG#{org_id}#due-work',
    sk: '{due}#{kind}#{id}',
    about:
      "a due-work entry item (an attendance's sign-out at closing time, an award's next expiry warning, a recurring run): the due index's keys, `kind`, `org_id`, `id`, `due`, `data`, and for a recurring entry `recurrence` (`DTSTART;TZID=<IANA zone>:<local time>` + `RRULE`, RFC 5545); written and removed in the record's own transactions (the record keeps its key in `schedule`, internal); a recurring entry's run removes it and puts its next occurrence after the run",
  },
});

const shardOf = (id: string) => String(Number.parseInt(id.slice(-1), 16) % DUE_SHARDS);
export const iso = (at: number) => new Date(at).toISOString();

/** The index keys that make an item due for `kind` on record `id` at `at` (epoch ms). */
export const dueKeys = (kind: string, id: string, at: number) =>
  indexKeysFrom(dueKeyPatterns.due, { shard: shardOf(id), due: iso(at), kind, id });

/** The upper bound of the keys due at `now`: every entry due then or before sorts below it. */
export const dueBound = (now: number) => `${iso(now)}#~`;
