/**
 * The national street-works service's events, and what each does to the permit or activity it concerns.
 * Pure. The event's schema may grow without notice: unknown members are kept, unknown event types are
 * recorded and change nothing.
 */

export interface StreetWorksEvent {
  event_reference: string;
  event_type: string;
  object_type: 'PERMIT' | 'ACTIVITY';
  object_reference: string;
  event_time: string;
  object_data: Record<string, unknown>;
  version?: unknown;
  [member: string]: unknown;
}

/** The fields an event must have; the rest (and anything new) is kept as it came. */
export const eventProblems = (value: unknown): string[] => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ['Message is not a JSON object.'];
  const e = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of ['event_reference', 'event_type', 'object_reference', 'event_time'] as const) {
    if (typeof e[field] !== 'string' || e[field] === '') problems.push(`${field} is required.`);
  }
  if (e.object_type !== 'PERMIT' && e.object_type !== 'ACTIVITY')
    problems.push('object_type must be PERMIT or ACTIVITY.');
  if (typeof e.event_time === 'string' && Number.isNaN(Date.parse(e.event_time))) {
    problems.push('event_time is not a date-time.');
  }
  if (e.object_data !== undefined && (typeof e.object_data !== 'object' || e.object_data === null)) {
    problems.push('object_data must be an object.');
  }
  return problems;
};

/** What an event type says about the object's state; unknown types say nothing. */
const effects: Record<string, { status?: string; work_status?: string }> = {
  PERMIT_SUBMITTED: { status: 'submitted' },
  PERMIT_GRANTED: { status: 'granted' },
  PERMIT_REFUSED: { status: 'refused' },
  PERMIT_REVOKED: { status: 'revoked' },
  PERMIT_CANCELLED: { status: 'cancelled' },
  PERMIT_ALTERATION_GRANTED: { status: 'granted' },
  WORK_START: { work_status: 'in_progress' },
  WORK_STOP: { work_status: 'completed' },
  WORK_START_REVERTED: { work_status: 'not_started' },
  WORK_STOP_REVERTED: { work_status: 'in_progress' },
  ACTIVITY_CREATED: { status: 'active' },
  ACTIVITY_UPDATED: { status: 'active' },
  ACTIVITY_CANCELLED: { status: 'cancelled' },
};

export const knownEventTypes = Object.keys(effects);

export interface ObjectState {
  status: string | null;
  work_status: string | null;
  latest_event_time: string | null;
  usrn: string | null;
}

/**
 * The object's state after an event, and whether the event moved it. An event older than the latest
 * one applied is recorded but does not move the state back; an unknown event type moves nothing. A
 * permit's own `object_data.permit_status` wins over the status its event type implies.
 */
export const applyEvent = (
  current: ObjectState | null,
  event: StreetWorksEvent,
): { state: ObjectState; applied: boolean } => {
  const base: ObjectState = current ?? {
    status: null,
    work_status: null,
    latest_event_time: null,
    usrn: null,
  };
  // Own entries only: an event_type of `constructor` is unknown, not Object's constructor.
  const effect = Object.hasOwn(effects, event.event_type) ? effects[event.event_type] : undefined;
  const stale =
    base.latest_event_time !== null && Date.parse(event.event_time) < Date.parse(base.latest_event_time);
  if (!effect || stale) return { state: base, applied: false };
  const data = event.object_data ?? {};
  const reported = typeof data.permit_status === 'string' ? data.permit_status : undefined;
  return {
    applied: true,
    state: {
      status: effect.status ? (reported ?? effect.status) : (reported ?? base.status),
      work_status:
        effect.work_status ?? base.work_status ?? (event.object_type === 'PERMIT' ? 'not_started' : null),
      latest_event_time: new Date(event.event_time).toISOString(),
      usrn: typeof data.usrn === 'string' || typeof data.usrn === 'number' ? String(data.usrn) : base.usrn,
    },
  };
};

/**
 * The organisation an object belongs to: the longest configured prefix of its reference
 * (`prefix=org_id,…`), or null when none matches.
 */
export const organisationFor = (reference: string, mapping: string): string | null => {
  const entries = mapping
    .split(',')
    .map((pair) => pair.split('=').map((s) => s.trim()))
    .filter((p): p is [string, string] => p.length === 2 && p[0] !== '' && p[1] !== '');
  const [best] = entries
    .filter(([prefix]) => reference.startsWith(prefix))
    .sort((a, b) => b[0].length - a[0].length);
  return best?.[1] ?? null;
};
