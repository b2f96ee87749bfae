/**
 * Evaluating a specification: for each person asked about (up to 100), on one day, whether each part of
 * its rule is met and by which awards. People's awards are kept on their records (`awards.ts`), so the
 * people are one BatchGetItem, whatever their number of awards.
 */

import { users } from '#functions/people/users';
import { UUID } from '#shared/data/ids';
import { batchGetInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { parseCalendarDate } from '#shared/jsonapi/collection-query';
import { ValidationError } from '#shared/jsonapi/errors';
import { type OwnQueryParameters, requireOwnParameters } from '#shared/jsonapi/own-query-parameters';
import { awardsOf } from './person-awards';
import { dayOf } from './rules/awards';
import { evaluate, type Rule } from './rules/rules';

export const EVALUATION_PEOPLE_MAX = 100;

/** The query parameters an evaluation reads itself (its collection's own features aside). */
export const evaluationParameters = {
  'filter[person]': {
    description: `The people to evaluate: user ids, comma-separated or the parameter repeated (1 to ${EVALUATION_PEOPLE_MAX}).`,
    required: true,
  },
  'filter[on]': {
    description: 'The day to evaluate on, YYYY-MM-DD (UTC); today by default.',
    schema: { type: 'string', format: 'date' },
  },
} as const satisfies OwnQueryParameters;

/** `filter[person]` (repeated or comma-joined ids) and `filter[on]` (a date; today, UTC, by default). */
export const parseEvaluationQuery = (
  query: Readonly<Record<string, string | undefined>>,
  now = Date.now(),
) => {
  requireOwnParameters(query, evaluationParameters);
  const people = [
    ...new Set(
      (query['filter[person]'] ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  const problem = (parameter: string, detail: string) =>
    new ValidationError({ detail, source: { parameter } });
  if (people.length === 0)
    throw problem('filter[person]', 'filter[person] names the people to evaluate (user ids).');
  if (people.length > EVALUATION_PEOPLE_MAX)
    throw problem('filter[person]', `At most ${EVALUATION_PEOPLE_MAX} people in one evaluation.`);
  const malformed = people.find((id) => !UUID.test(id));
  if (malformed !== undefined) throw problem('filter[person]', `${malformed} is not a user id.`);
  const on = query['filter[on]'];
  return { people, on: on === undefined ? dayOf(now) : parseCalendarDate('filter[on]', on) };
};

/** Whether a person meets a rule on a day, from their record. */
export const meets = (rule: Rule, person: StoredResource, day: string) =>
  evaluate(rule, awardsOf(person), day).met;

/** The evaluations, as stored-record shapes of `qualification-evaluations`, one per person in the order asked. */
export const evaluateSpecification = async (
  scope: Scope,
  specification: StoredResource,
  people: readonly string[],
  on: string,
): Promise<StoredResource[]> => {
  const found = new Map(
    (
      await batchGetInScope(
        scope,
        people.map((id) => users.keyOf(specification.org_id, id)),
      )
    ).map((user) => [user.id, user]),
  );
  const missing = people.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new ValidationError({
      detail: `No user in this organisation with id ${missing.join(', ')}.`,
      source: { parameter: 'filter[person]' },
    });
  const rule = specification.attributes.rule as Rule;
  return people.map((id) => {
    const result = evaluate(rule, awardsOf(found.get(id) as StoredResource), on);
    return {
      pk: '',
      sk: id,
      type: 'qualification-evaluations',
      id,
      org_id: specification.org_id,
      attributes: { on, met: result.met, rule: result },
      meta: {},
      rels: { person: id, specification: specification.id },
      version: 0,
    };
  });
};
