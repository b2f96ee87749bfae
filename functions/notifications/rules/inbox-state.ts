/**
 * The inbox's state, pure: an envelope's effective marks under the inbox's watermarks, and the exact
 * counts the state item keeps (docs/notifications.md, "States and watermarks", "Counts").
 *
 * A watermark is an arrival position (a UUIDv7) with a generation. An envelope's own mark wins when it was
 * written in the watermark's current generation (set after the watermark last moved); otherwise the
 * watermark marks it when it arrived at or below it. Marking through a position moves the watermark and
 * its generation: every envelope at or below it is then marked, whatever it said before, so the counts of
 * those envelopes are zero without reading them.
 *
 * Counts are kept by organisation, day of arrival (UTC) and category, so envelopes passing their 90 days
 * leave them with no write, and one organisation's are summed alone; saved envelopes, which never expire,
 * are counted apart (`#saved`), still by day so a watermark's day split applies to them too.
 */

export type InboxState = 'unseen' | 'seen' | 'read';
export type Mark = 'seen' | 'read' | 'archived';
export const MARKS: readonly Mark[] = ['seen', 'read', 'archived'];

export interface Watermark {
  /** The arrival position marked through (inclusive); null before the first mark. */
  through: string | null;
  generation: number;
}

export interface Tally {
  unseen: number;
  unread: number;
}

export interface InboxStateItem {
  version: number;
  watermarks: Record<Mark, Watermark>;
  /** `<org_id>#<YYYY-MM-DD>#<category>#kept|saved` → the envelopes there counted unseen and unread. */
  counts: Record<string, Tally>;
}

/** What of an envelope the state rules read. */
export interface EnvelopeMarks {
  org_id: string;
  arrival: string;
  category: string;
  state: InboxState;
  saved: boolean;
  archived: boolean;
  /** The generations of the watermarks when its own marks were written. */
  marked: Record<Mark, number>;
}

export const KEPT_DAYS = 90;
const DAY = 86_400_000;

export const emptyState = (): InboxStateItem => ({
  version: 0,
  watermarks: {
    seen: { through: null, generation: 0 },
    read: { through: null, generation: 0 },
    archived: { through: null, generation: 0 },
  },
  counts: {},
});

/** The millisecond a UUIDv7 was minted at (its first 48 bits). */
export const arrivalTime = (arrival: string): number =>
  Number.parseInt(arrival.replaceAll('-', '').slice(0, 12), 16);

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const covered = (envelope: EnvelopeMarks, state: InboxStateItem, mark: Mark): boolean => {
  const { through } = state.watermarks[mark];
  return through !== null && envelope.arrival <= through;
};

/** Its own mark when written in the current generation, else its own or the watermark's. */
const marked = (envelope: EnvelopeMarks, state: InboxStateItem, mark: Mark, own: boolean): boolean =>
  envelope.marked[mark] === state.watermarks[mark].generation ? own : own || covered(envelope, state, mark);

/** The envelope's effective state and archived flag: archiving reads (and so sees) it. */
export const effectiveMarks = (
  envelope: EnvelopeMarks,
  state: InboxStateItem,
): { state: InboxState; archived: boolean } => {
  const archived = marked(envelope, state, 'archived', envelope.archived);
  const read = archived || marked(envelope, state, 'read', envelope.state === 'read');
  const seen = read || marked(envelope, state, 'seen', envelope.state !== 'unseen');
  return { state: read ? 'read' : seen ? 'seen' : 'unseen', archived };
};

/** Where an envelope is counted. */
export const countName = (envelope: Pick<EnvelopeMarks, 'org_id' | 'arrival' | 'category' | 'saved'>) =>
  `${envelope.org_id}#${dayOf(arrivalTime(envelope.arrival))}#${envelope.category}#${envelope.saved ? 'saved' : 'kept'}`;

const parseName = (name: string) => {
  const [org, day, category, kind] = name.split('#');
  return { org: org ?? '', day: day ?? '', category: category ?? '', saved: kind === 'saved' };
};

/** What one envelope adds to its count, in the state given. */
export const tallyOf = (envelope: EnvelopeMarks, state: InboxStateItem): Tally => {
  const effective = effectiveMarks(envelope, state).state;
  return { unseen: effective === 'unseen' ? 1 : 0, unread: effective === 'read' ? 0 : 1 };
};

/** The first day whose kept envelopes are live at `now`: one arriving on day D expires at the end of D + 90. */
export const firstLiveDay = (now: number): string => dayOf(Math.floor(now / DAY) * DAY - KEPT_DAYS * DAY);

/** An envelope's TTL (epoch seconds): the end of its day of arrival plus 90 days. */
export const expiryOfArrival = (arrival: string): number =>
  (Math.floor(arrivalTime(arrival) / DAY) * DAY + (KEPT_DAYS + 1) * DAY) / 1000;

/** The counts with `by` moved: `sign` +1 adds, -1 takes away; kept days past the window are dropped. */
export const moved = (
  counts: Record<string, Tally>,
  name: string,
  by: Tally,
  sign: 1 | -1,
  now: number,
): Record<string, Tally> => {
  const before = counts[name] ?? { unseen: 0, unread: 0 };
  const after = { unseen: before.unseen + sign * by.unseen, unread: before.unread + sign * by.unread };
  const next = { ...counts, [name]: after };
  if (after.unseen === 0 && after.unread === 0) delete next[name];
  return pruned(next, now);
};

/** The counts without the kept days that have expired: nothing reads them again. */
export const pruned = (counts: Record<string, Tally>, now: number): Record<string, Tally> => {
  const from = firstLiveDay(now);
  return Object.fromEntries(
    Object.entries(counts).filter(([name]) => {
      const { day, saved } = parseName(name);
      return saved || day >= from;
    }),
  );
};

export interface Counts {
  unseen: number;
  unread: number;
  categories: Record<string, Tally>;
}

/** The inbox's live counts in the caller's organisations (and, given one, in that one only). */
export const countsOf = (state: InboxStateItem, organisations: ReadonlySet<string>, now: number): Counts => {
  const from = firstLiveDay(now);
  const total: Counts = { unseen: 0, unread: 0, categories: {} };
  for (const [name, tally] of Object.entries(state.counts)) {
    const { org, day, category, saved } = parseName(name);
    if (!organisations.has(org) || (!saved && day < from)) continue;
    total.unseen += tally.unseen;
    total.unread += tally.unread;
    const of = total.categories[category] ?? { unseen: 0, unread: 0 };
    total.categories[category] = { unseen: of.unseen + tally.unseen, unread: of.unread + tally.unread };
  }
  return total;
};

/**
 * The state once `mark` is moved through `position`: the watermark never moves back (marking through an
 * older position re-applies the current one), its generation moves on, and every count of a day before
 * the watermark's is zeroed for what the mark implies (a seen mark: unseen; read and archived: both). The
 * watermark's own day is counted again from `aboveOfDay`, its envelopes that arrived after the position.
 */
export const markedThrough = (
  state: InboxStateItem,
  mark: Mark,
  position: string,
  aboveOfDay: readonly EnvelopeMarks[],
  now: number,
): InboxStateItem => {
  const before = state.watermarks[mark];
  const through = before.through !== null && before.through > position ? before.through : position;
  const next: InboxStateItem = {
    ...state,
    version: state.version + 1,
    watermarks: { ...state.watermarks, [mark]: { through, generation: before.generation + 1 } },
  };
  const day = dayOf(arrivalTime(through));
  const zeroes = (field: keyof Tally) => mark !== 'seen' || field === 'unseen';
  const left = (tally: Tally): Tally => ({
    unseen: zeroes('unseen') ? 0 : tally.unseen,
    unread: zeroes('unread') ? 0 : tally.unread,
  });
  const counts: Record<string, Tally> = {};
  for (const [name, tally] of Object.entries(state.counts))
    counts[name] = parseName(name).day > day ? tally : left(tally);
  // The watermark's own day: what it zeroes, counted again from the envelopes after the position, whose
  // marks the move leaves as they were (no watermark reached them, before or now).
  for (const envelope of aboveOfDay) {
    if (envelope.arrival <= through || dayOf(arrivalTime(envelope.arrival)) !== day) continue;
    const name = countName(envelope);
    const tally = tallyOf(envelope, next);
    const of = counts[name] ?? { unseen: 0, unread: 0 };
    counts[name] = {
      unseen: of.unseen + (zeroes('unseen') ? tally.unseen : 0),
      unread: of.unread + (zeroes('unread') ? tally.unread : 0),
    };
  }
  const recounted = Object.fromEntries(
    Object.entries(counts).filter(([, tally]) => tally.unseen > 0 || tally.unread > 0),
  );
  return { ...next, counts: pruned(recounted, now) };
};
