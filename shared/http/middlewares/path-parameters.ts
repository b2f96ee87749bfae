/**
 * Path ids are UUIDs throughout the spec: anything else is a 400 naming the parameter, before any lookup.
 * Roles are the exception the spec names: built-in roles have fixed string ids (`admin`, `viewer`).
 */
export const ROLE_ID = /^[a-z][a-z0-9-]{1,63}$/;
const valid = (name: string, value: string) =>
  UUID.test(value) || (name === 'role_id' && ROLE_ID.test(value));

import { UUID } from '../../data/ids';
import { ValidationError } from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';

export const pathParameters = (): ApiMiddleware => ({
  before: ({ event }) => {
    const problems = Object.entries(event.pathParameters ?? {})
      .filter(([name, value]) => name.endsWith('_id') && !valid(name, value ?? ''))
      .map(
        ([name]) => new ValidationError({ detail: `${name} must be a UUID.`, source: { parameter: name } }),
      );
    if (problems.length > 0) throw new ValidationError({ problems });
  },
});
