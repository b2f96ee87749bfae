/**
 * A notice's own rules (pure): what it may say and when it escalates. Who it reaches is
 * `notice-recipients.ts`; the write that applies both is `notice-writes.ts`.
 */
import { parse } from 'iso8601-duration';

/** An escalation sooner than this would page a team before anyone could read the notice. */
export const ESCALATE_AFTER_MIN_SECONDS = 15 * 60;
/** Longer than a week unacknowledged, a notice has failed: escalate within it. */
export const ESCALATE_AFTER_MAX_SECONDS = 7 * 24 * 3600;

/** A refusal of what a request says, at its pointer (a 422). */
export interface Problem {
  pointer: string;
  detail: string;
}

const ESCALATE_AFTER = '/data/attributes/escalate_after';
const SENDER_TEAM = '/data/relationships/sender_team';

/**
 * Seconds of an ISO 8601 duration of weeks, days, hours, minutes and seconds, or null for anything else:
 * years and months have no fixed length, so an escalation names days instead.
 */
export const durationSeconds = (text: string): number | null => {
  if (!/^P(?!$)(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(text)) return null;
  const { weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0 } = parse(text);
  return ((weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60 + seconds;
};

/** `escalate_after` only with `requires_ack`, a duration of 15 minutes to 7 days. */
export const escalationProblems = (requiresAck: boolean, escalateAfter: string | undefined): Problem[] => {
  if (escalateAfter === undefined) return [];
  if (!requiresAck)
    return [
      {
        pointer: ESCALATE_AFTER,
        detail: 'escalate_after is only for a notice that requires acknowledgement (requires_ack: true).',
      },
    ];
  const seconds = durationSeconds(escalateAfter);
  if (seconds === null)
    return [
      {
        pointer: ESCALATE_AFTER,
        detail:
          'escalate_after is an ISO 8601 duration of weeks, days, hours, minutes or seconds, such as PT2H or P1D.',
      },
    ];
  if (seconds < ESCALATE_AFTER_MIN_SECONDS || seconds > ESCALATE_AFTER_MAX_SECONDS)
    return [
      { pointer: ESCALATE_AFTER, detail: 'escalate_after is between 15 minutes (PT15M) and 7 days (P7D).' },
    ];
  return [];
};

/** Who sends, as the rules see them: a user (and their teams in the organisation), or a service account. */
export interface Sender {
  kind: 'user' | 'service-account';
  id: string;
}

/**
 * The team an unacknowledged notice escalates to: required when the notice requires acknowledgement,
 * a team of the organisation (`teamMembers`: its members, or null when it is not one), and a team the
 * sending user belongs to (a service account belongs to no team: any of the organisation's).
 */
export const senderTeamProblems = (
  requiresAck: boolean,
  senderTeam: string | undefined,
  teamMembers: readonly string[] | null,
  sender: Sender,
): Problem[] => {
  if (senderTeam === undefined)
    return requiresAck
      ? [
          {
            pointer: SENDER_TEAM,
            detail: 'A notice that requires acknowledgement names the team it escalates to (sender_team).',
          },
        ]
      : [];
  if (teamMembers === null)
    return [{ pointer: `${SENDER_TEAM}/data/id`, detail: 'No such team in this organisation.' }];
  if (sender.kind === 'user' && !teamMembers.includes(sender.id))
    return [{ pointer: `${SENDER_TEAM}/data/id`, detail: 'The sender is not a member of this team.' }];
  return [];
};
