/** Path ids are UUIDs throughout the spec: anything else is a 400 naming the parameter, before any lookup. */
import { UUID } from '../../data/ids';
import { ValidationError } from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';

export const pathParameters = (): ApiMiddleware => ({
  before: ({ event }) => {
    const problems = Object.entries(event.pathParameters ?? {})
      .filter(([name, value]) => name.endsWith('_id') && !UUID.test(value ?? ''))
      .map(
        ([name]) => new ValidationError({ detail: `${name} must be a UUID.`, source: { parameter: name } }),
      );
    if (problems.length > 0) throw new ValidationError({ problems });
  },
});
