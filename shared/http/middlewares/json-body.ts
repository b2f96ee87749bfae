/** Parses JSON:API request bodies with middy's parser; requests without a body pass through untouched. */
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { ApiMiddleware } from '../api-context';
import type { Route } from '../route';

const parser = httpJsonBodyParser();

export const jsonBody = (route: Route): ApiMiddleware => ({
  before: (request) => {
    if (route.bodyType !== undefined || !request.event.body) return;
    return parser.before?.(request as never);
  },
});
