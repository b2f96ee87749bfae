/**
 * When a digest goes (pure): the end of the window an envelope written at an instant falls in. Hourly
 * windows end on the next whole hour, in UTC (so in a zone offset by a half hour they end at :30 local).
 * Daily windows end at the next `daily_digest_at` on the organisation's wall clock, summer time included
 * (@date-fns/tz, as a site's closing time is): 08:00 Europe/London is 07:00Z in summer, 08:00Z in winter.
 * A window ends strictly after the write, so an envelope written on the hour goes in the next one.
 */
import { TZDate } from '@date-fns/tz';

/** How a digested envelope's e-mail waits: the next hour, or the next daily time in the organisation's zone. */
export type DigestPlan = { cadence: 'hourly' } | { cadence: 'daily'; at: string; zone: string };

const HOUR = 3_600_000;

const localTime = (day: TZDate, plusDays: number, at: string, zone: string) => {
  const [hours = 0, minutes = 0] = at.split(':').map(Number);
  return new TZDate(
    day.getFullYear(),
    day.getMonth(),
    day.getDate() + plusDays,
    hours,
    minutes,
    zone,
  ).getTime();
};

/** The end of the digest window an envelope written at `written` (epoch ms) falls in (epoch ms). */
export const windowEnd = (written: number, plan: DigestPlan): number => {
  if (plan.cadence === 'hourly') return Math.floor(written / HOUR) * HOUR + HOUR;
  const today = new TZDate(written, plan.zone);
  const end = localTime(today, 0, plan.at, plan.zone);
  return end > written ? end : localTime(today, 1, plan.at, plan.zone);
};
