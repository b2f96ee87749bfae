/**
 * Recurring entries' rules: RFC 5545 `DTSTART;TZID=<IANA zone>:<local time>` with an `RRULE`, expanded
 * by rrule-temporal on Temporal's zoned date-times, so "daily at 07:00 Europe/London" is 07:00 on the
 * wall clock on both sides of a DST change (06:00Z in summer, 07:00Z in winter) whatever zone the host
 * runs in, and an occurrence at a local time a spring-forward skips is left out, as RFC 5545 says.
 * Node 24 has no Temporal without a flag, hence the polyfill. Imported only by `recurring-entries.ts`, so
 * one-shot work carries none of it.
 */
import 'temporal-polyfill/global';
import { RRuleTemporal } from 'rrule-temporal';

const ruleOf = (recurrence: string) => {
  if (!/^DTSTART;TZID=[^:]+:\d{8}T\d{6}$/m.test(recurrence) || !/^RRULE:/m.test(recurrence))
    throw new Error('A recurrence is DTSTART;TZID=<IANA zone>:<local time> and an RRULE line');
  return new RRuleTemporal({ rruleString: recurrence });
};

/** Refuses a rule that names no time zone, one that is not an IANA zone, or one that does not parse. */
export const checkRecurrence = (recurrence: string): void => {
  ruleOf(recurrence).next(new Date(0), true);
};

/** The first occurrence after `after` (epoch ms; at or after it when `inclusive`), or null once it ends. */
export const nextOccurrence = (recurrence: string, after: number, inclusive = false): number | null => {
  const next = ruleOf(recurrence).next(new Date(after), inclusive);
  return next ? next.epochMilliseconds : null;
};
