/**
 * The inbox's changes: one envelope's marks (PATCH), several envelopes' (a mark by ids) and a watermark
 * (a mark through a position). Each reads the state item and what it changes consistently and commits
 * them together with the state item's version checked, so a concurrent write (an envelope arriving, another
 * mark) sends it round again and no count is lost or counted twice.
 */

import { uuidv7 } from '#shared/data/ids';
import { putTogether, readConsistently } from '#shared/data/inbox';
import { live } from '#shared/data/repository';
import { DataUnavailable } from '#shared/data/unavailable';
import { ValidationError } from '#shared/jsonapi/errors';
import { type InboxOwner, isOwn, ownEnvelope } from './inbox-owner';
import {
  arrivedLaterThatDay,
  envelopeKey,
  marksOf,
  readEnvelope,
  readState,
  type StoredEnvelope,
  statePut,
} from './inbox-state';
import {
  countName,
  effectiveMarks,
  expiryOfArrival,
  type InboxState,
  type InboxStateItem,
  type Mark,
  markedThrough,
  moved,
  tallyOf,
} from './rules/inbox-state';

export interface EnvelopeChange {
  state?: 'seen' | 'read' | 'unread';
  saved?: boolean;
  archived?: boolean;
}

const ATTEMPTS = 5;

export const retried = async <T>(attempt: () => Promise<T | null>): Promise<T> => {
  for (let i = 0; i < ATTEMPTS; i++) {
    const done = await attempt();
    if (done !== null) return done;
  }
  throw new DataUnavailable('The inbox kept changing while it was written');
};

/** An envelope's own state once changed: `unread` takes a read one back to seen; nothing goes back to unseen. */
const nextState = (effective: InboxState, asked: EnvelopeChange['state']): InboxState => {
  if (asked === 'read') return 'read';
  if (asked === 'unread') return effective === 'read' ? 'seen' : effective;
  if (asked === 'seen') return effective === 'unseen' ? 'seen' : effective;
  return effective;
};

/** The envelope changed in the state given, and the state's counts moved for it. */
export const changed = (
  envelope: StoredEnvelope,
  change: EnvelopeChange,
  state: InboxStateItem,
  now: number,
): { envelope: StoredEnvelope; state: InboxStateItem } => {
  const before = marksOf(envelope);
  const effective = effectiveMarks(before, state);
  const archived = change.archived ?? effective.archived;
  const saved = change.saved ?? before.saved;
  // Archiving reads (and so sees) it.
  const ownState = archived && !effective.archived ? 'read' : nextState(effective.state, change.state);
  const { expires_at: _expiry, ...rest } = envelope;
  const after: StoredEnvelope = {
    ...rest,
    version: envelope.version + 1,
    marked: {
      seen: state.watermarks.seen.generation,
      read: state.watermarks.read.generation,
      archived: state.watermarks.archived.generation,
    },
    attributes: { ...envelope.attributes, state: ownState, archived, saved },
    // Saved envelopes are kept; unsaving gives back the expiry its arrival set.
    ...(saved ? {} : { expires_at: expiryOfArrival(envelope.arrival) }),
  };
  let counts = moved(state.counts, countName(before), tallyOf(before, state), -1, now);
  counts = moved(counts, countName(marksOf(after)), tallyOf(marksOf(after), state), 1, now);
  return { envelope: after, state: { ...state, counts } };
};

/** PATCH of one envelope: answers it as changed. */
export const changeEnvelope = (owner: InboxOwner, id: string, change: EnvelopeChange, now = Date.now) =>
  retried(async () => {
    const [state, stored] = await Promise.all([
      readState(owner.userId, true),
      readEnvelope(owner.userId, id, true),
    ]);
    const envelope = ownEnvelope(owner, stored && live(stored, now()) ? stored : null);
    const next = changed(envelope, change, state, now());
    const nextState = { ...next.state, version: state.version + 1 };
    const ok = await putTogether([next.envelope, statePut(owner.userId, nextState)] as never);
    return ok ? { envelope: next.envelope, state: nextState } : null;
  });

const CHANGE_OF: Record<MarkAction, EnvelopeChange> = {
  seen: { state: 'seen' },
  read: { state: 'read' },
  archive: { archived: true },
};
export type MarkAction = 'seen' | 'read' | 'archive';
const WATERMARK_OF: Record<MarkAction, Mark> = { seen: 'seen', read: 'read', archive: 'archived' };

/** At most this many envelopes a transaction, beside the state item. */
const PER_COMMIT = 99;

/** A mark of envelopes by id (at most 100): each not the caller's (or expired) is a 400 at its place. */
export const markByIds = async (
  owner: InboxOwner,
  action: MarkAction,
  ids: readonly string[],
  now = Date.now,
): Promise<InboxStateItem> => {
  const unique = [...new Set(ids)];
  const check = await readConsistently<StoredEnvelope>(unique.map((id) => envelopeKey(owner.userId, id)));
  const foundIds = new Set(check.filter((e) => live(e, now()) && isOwn(owner, e)).map((e) => e.id));
  const missing = ids.findIndex((id) => !foundIds.has(id));
  if (missing >= 0)
    throw new ValidationError({
      detail: 'Not one of your notifications.',
      source: { pointer: `/data/attributes/ids/${missing}` },
    });
  let last: InboxStateItem | null = null;
  for (let i = 0; i < unique.length; i += PER_COMMIT) {
    const chunk = unique.slice(i, i + PER_COMMIT);
    last = await retried(async () => {
      const [state, envelopes] = await Promise.all([
        readState(owner.userId, true),
        readConsistently<StoredEnvelope>(chunk.map((id) => envelopeKey(owner.userId, id))),
      ]);
      let next = state;
      const puts: StoredEnvelope[] = [];
      for (const envelope of envelopes) {
        const step = changed(envelope, CHANGE_OF[action], next, now());
        next = step.state;
        puts.push(step.envelope);
      }
      next = { ...next, version: state.version + 1 };
      const ok = await putTogether([...puts, statePut(owner.userId, next)] as never);
      return ok ? next : null;
    });
  }
  return last ?? (await readState(owner.userId));
};

/**
 * A mark through a position (an envelope's arrival, or now): ONE write of the state item, at any inbox
 * size; the watermark's own day is counted again from the envelopes after the position that day.
 */
export const markThrough = (
  owner: InboxOwner,
  action: MarkAction,
  through: { id: string } | 'now',
  now = Date.now,
): Promise<InboxStateItem> =>
  retried(async () => {
    const mark = WATERMARK_OF[action];
    const [state, named] = await Promise.all([
      readState(owner.userId, true),
      through === 'now' ? Promise.resolve(null) : readEnvelope(owner.userId, through.id),
    ]);
    if (through !== 'now' && !isOwn(owner, named))
      throw new ValidationError({
        detail: 'Not one of your notifications.',
        source: { pointer: '/data/attributes/through' },
      });
    const position = named?.arrival ?? uuidv7(now());
    const current = state.watermarks[mark].through;
    const from = current !== null && current > position ? current : position;
    const next = markedThrough(
      state,
      mark,
      position,
      (await arrivedLaterThatDay(owner.userId, from)).map(marksOf),
      now(),
    );
    return (await putTogether([statePut(owner.userId, next)])) ? next : null;
  });
