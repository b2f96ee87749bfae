/**
 * A qualification award's life and what it proves (pure). `pending_approval` → `valid` (approved) or
 * `rejected`; `valid` → `expired` (its expiry date arrives) or `revoked`; `expired` → `revoked`. Rejected and
 * revoked are final; a renewal is a new award, so an award's dates never move once it is approved.
 *
 * Dates are calendar dates (`YYYY-MM-DD`): an award counts on day D when it was approved (valid, or expired
 * since), `issued_at <= D` and, if it expires, `D < expires_at` (it expires at the start of that day, UTC).
 */
import { parse } from 'iso8601-duration';

export const AWARD_STATUSES = ['pending_approval', 'valid', 'expired', 'rejected', 'revoked'] as const;
export type AwardStatus = (typeof AWARD_STATUSES)[number];

/** A decision an award's person may not make on it (four eyes); revoking it is another's word anyway. */
export type AwardAction = 'approved' | 'rejected' | 'revoked';

/**
 * Four eyes on a decision: the person an award is for never approves or rejects it, whatever they hold
 * (a holder of `qualifications:approve` could otherwise make themself competent for any gate). Who
 * recorded it may decide it: recording copies a certificate in, deciding checks it. `decider` is the
 * user deciding (null for a service account, which is never an award's person). Why not, or null.
 */
export const deciderRefusal = (action: AwardAction, person: string, decider: string | null): string | null =>
  action !== 'revoked' && decider === person
    ? `Nobody ${action === 'approved' ? 'approves' : 'rejects'} their own award: another holder of qualifications:approve decides it.`
    : null;

/** What the evidence guard reads beside the award: its type's rule and its evidence folder's tally. */
export interface AwardFacts {
  evidenceRequired: boolean;
  /** Documents in the award's evidence folder (its subfolders included); 0 without a folder. */
  documents: number;
}

/** Evidence an approval needs, when the type requires it: a folder with at least one document. */
export const evidenceRefusals = (facts: AwardFacts): string[] =>
  facts.evidenceRequired && facts.documents === 0
    ? [
        'This qualification type requires evidence: link the award to a folder (evidence) holding at least one document first.',
      ]
    : [];

/** What a person's award says about them, as kept on their record for evaluations (one per award). */
export interface AwardEntry {
  id: string;
  qualification_type: string;
  status: AwardStatus;
  issued_at: string;
  expires_at: string | null;
  number: string | null;
}

/** Whether the award proves its type on `day` (YYYY-MM-DD). */
export const countsOn = (award: AwardEntry, day: string): boolean =>
  (award.status === 'valid' || award.status === 'expired') &&
  award.issued_at <= day &&
  (award.expires_at === null || day < award.expires_at);

/** Validity periods in whole calendar units: years, months, weeks and days (`P5Y`, `P18M`, `P2W`, `P90D`). */
export const VALIDITY_PERIOD = /^P(?=\d)(\d{1,3}Y)?(\d{1,4}M)?(\d{1,4}W)?(\d{1,5}D)?$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * The expiry date of an award issued on `issuedOn` valid for `period`: years and months move the
 * calendar (a day the target month lacks becomes its last: 29 February + P1Y is 28 February), then weeks
 * and days are added.
 */
export const expiryAfter = (issuedOn: string, period: string): string => {
  const { years = 0, months = 0, weeks = 0, days = 0 } = parse(period);
  const [year = 0, month = 1, day = 1] = issuedOn.split('-').map(Number);
  const monthIndex = year * 12 + (month - 1) + years * 12 + months;
  const [y, m] = [Math.floor(monthIndex / 12), monthIndex % 12];
  const date = new Date(Date.UTC(y, m, Math.min(day, daysIn(y, m)) + weeks * 7 + days));
  return date.toISOString().slice(0, 10);
};

/** The warnings before an expiry, in days: each is an event (`expiring`, then `expired` at 0). */
export const WARNING_DAYS = [30, 7, 0] as const;

const DAY_MS = 86_400_000;

/**
 * The next warning of an award that expires on `expiresOn`, after the one at `after` days (none yet:
 * undefined): when it is due (epoch ms, the start of its UTC day) and how many days before expiry it
 * is. Warnings already past at `now` are skipped, except the last: an expiry in the past is due now.
 */
export const nextWarning = (
  expiresOn: string,
  now: number,
  after?: number,
): { at: number; days: number } | null => {
  const expiry = Date.parse(`${expiresOn}T00:00:00Z`);
  const left = WARNING_DAYS.filter((days) => after === undefined || days < after);
  const due = left.find((days) => expiry - days * DAY_MS > now) ?? left.at(-1);
  if (due === undefined) return null;
  return { at: Math.max(expiry - due * DAY_MS, Math.min(now, expiry)), days: due };
};

/** Today's date in UTC, the calendar awards are kept in. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);
