/**
 * A day's register: `filter[day]=YYYY-MM-DD` is the attendances signed in that day in the organisation's
 * time zone (its settings), the same as `filter[signed_in_at.since]` and `.until` at that day's bounds.
 */

import { settingsKey, settingsOf } from '#shared/data/organisation-settings';
import { readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { parseCalendarDate, type QueryParameters } from '#shared/jsonapi/collection-query';
import { ValidationError } from '#shared/jsonapi/errors';
import { dayBounds } from './rules/site-day';

/** The query with `filter[day]` put as the signed-in window it means. */
export const registerQuery = async (
  scope: Scope,
  orgId: string,
  query: QueryParameters,
): Promise<QueryParameters> => {
  const { 'filter[day]': day, ...rest } = query;
  if (day === undefined) return query;
  const parameter = 'filter[day]';
  parseCalendarDate(parameter, day);
  if (rest['filter[signed_in_at.since]'] !== undefined || rest['filter[signed_in_at.until]'] !== undefined)
    throw new ValidationError({
      detail: 'filter[day] is a signed-in window itself: give one or the other.',
      source: { parameter },
    });
  const [settings] = await readAheadOr<StoredResource>(scope, [settingsKey(orgId)]);
  const { since, until } = dayBounds(day, settingsOf(settings ?? null).timezone);
  return { ...rest, 'filter[signed_in_at.since]': since, 'filter[signed_in_at.until]': until };
};
