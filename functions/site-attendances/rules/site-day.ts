/**
 * A site's day in its own time zone: when it closes after a sign-in, and where a calendar day starts and
 * ends (a day's register). Pure; zones are IANA names, summer time included (@date-fns/tz).
 */
import { TZDate } from '@date-fns/tz';

/** A time of day, `HH:MM` on the 24-hour clock. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const at = (day: TZDate, plusDays: number, hours: number, minutes: number, zone: string) =>
  new TZDate(day.getFullYear(), day.getMonth(), day.getDate() + plusDays, hours, minutes, zone).getTime();

/** The first closing (`HH:MM` in `zone`) after `signedIn` (epoch ms): that day's, or the next day's. */
export const nextClosing = (signedIn: number, closing: string, zone: string): number => {
  const [hours = 0, minutes = 0] = closing.split(':').map(Number);
  const local = new TZDate(signedIn, zone);
  const today = at(local, 0, hours, minutes, zone);
  return today > signedIn ? today : at(local, 1, hours, minutes, zone);
};

/** The first and last instant of a calendar day (`YYYY-MM-DD`) in `zone`, as ISO 8601 UTC. */
export const dayBounds = (day: string, zone: string): { since: string; until: string } => {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const start = new TZDate(year, month - 1, date, zone);
  return {
    since: new Date(start.getTime()).toISOString(),
    until: new Date(at(start, 1, 0, 0, zone) - 1).toISOString(),
  };
};
