/**
 * Unknown query parameters are refused before any handler runs, on routes whose handlers do not read
 * the query: every route that changes things (unless it names what it takes) and GET routes that list
 * none. Collection and single-resource reads validate their own (filter, sort, page, include).
 */
import { ValidationError } from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';
import type { Route } from '../route';

export const queryParameters = (route: Route): ApiMiddleware => ({
  before: ({ event }) => {
    if (route.method === 'GET' && route.query === undefined) return;
    const accepted = route.query ?? [];
    const names = [...new URLSearchParams(event.rawQueryString ?? '').keys()];
    const [unknown] = names.filter((name) => !accepted.includes(name));
    if (unknown !== undefined) {
      throw new ValidationError({
        detail: `Unknown query parameter ${unknown}${accepted.length > 0 ? `; this route takes ${accepted.join(', ')}` : '; this route takes none'}.`,
        source: { parameter: unknown },
      });
    }
  },
});
