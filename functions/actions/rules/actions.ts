/**
 * Actions' own rules (pure): priorities, the producers that raise them, a type's due period, the evidence
 * a type requires of a move and whether the caller is one of the action's parties.
 */
import { parse } from 'iso8601-duration';

export const PRIORITIES = ['none', 'low', 'medium', 'high', 'critical'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const PRODUCER_KINDS = [
  'manual',
  'workflow',
  'submission',
  'work-permit',
  'document-review',
  'qualification',
  'api',
] as const;

/**
 * The evidence a type may require of a move: a comment on the action for now; `image` and `submission`
 * join once the images and forms areas land (each a count among the move's facts, as comments are).
 */
export const EVIDENCE_KINDS = ['comment'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** Who a type may let make a move beside whoever holds `actions:manage`: the action's parties, or only managers. */
export const MOVE_PARTIES = ['assignee', 'managers'] as const;

/**
 * A type's due period: weeks, days and hours (a fixed length, so the due time is the same instant in any
 * zone), as ISO 8601 writes them: `P3D`, `P2W`, `PT4H`, `P1DT12H`.
 */
export const DUE_PERIOD = /^P(?!$)(\d{1,3}W)?(\d{1,4}D)?(T(?=\d)(\d{1,5}H)?)?$/;

/** When an action made at `now` is due under its type's period. */
export const dueAfter = (now: Date, period: string): string => {
  const { weeks = 0, days = 0, hours = 0 } = parse(period);
  return new Date(now.getTime() + ((weeks * 7 + days) * 24 + hours) * 3_600_000).toISOString();
};

/** The states in which an action is still to be done: past its due time in one of them, it is overdue. */
export const OPEN_STATES = ['open', 'in_progress', 'blocked', 'awaiting_verification'] as const;

export const isOverdue = (status: unknown, dueAt: unknown, now: Date): boolean =>
  typeof dueAt === 'string' &&
  (OPEN_STATES as readonly unknown[]).includes(status) &&
  Date.parse(dueAt) < now.getTime();

/** What a party rule is told of the caller and the action. */
export interface PartyFacts {
  orgId: string;
  callerId: string;
  callerTeams: readonly string[];
  /** `<type>:<id>` (a polymorphic relationship's stored value), or null. */
  assignee: string | null;
  claimedBy: string | null;
  watchers: readonly string[];
}

/**
 * Whether the caller is one of the action's parties: its assignee, its claimant, a member of the team
 * assigned, or one of its watchers. They read it and make the assignee's moves without `actions:view`.
 */
export const isParty = ({ callerId, callerTeams, assignee, claimedBy, watchers }: PartyFacts): boolean =>
  assignee === `users:${callerId}` ||
  claimedBy === callerId ||
  (assignee?.startsWith('teams:') === true && callerTeams.includes(assignee.slice('teams:'.length))) ||
  watchers.includes(callerId);

/** The evidence a move lacks, as reasons: what the type requires that the action does not hold. */
export const missingEvidence = (
  verb: string,
  required: readonly EvidenceKind[],
  held: Readonly<Record<EvidenceKind, number>>,
): string[] =>
  required
    .filter((kind) => (held[kind] ?? 0) === 0)
    .map((kind) => `This action type requires a ${kind} on the action as evidence to ${verb} it.`);
