/**
 * Gives each request an id, echoed as X-Request-ID on every response (errors too, with any headers the
 * request's middlewares set for every answer: `context.responseHeaders`) and put on each log
 * line: the caller's own when it sent a safe one, else API Gateway's request id (the access log's
 * `requestId`), so a response, its function's log lines and the gateway's access log line join on one id.
 * Each request ends with one log line: route, method, status, duration, principal, organisation, and both
 * ids; never a body, a header or a query string.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ApiMiddleware } from '../api-context';
import { log } from '../log';
import type { Route } from '../route';

// A caller's id is kept only if it cannot smuggle anything into logs or headers.
const SAFE_ID = /^[A-Za-z0-9._-]{8,128}$/;

type Finish = NonNullable<ApiMiddleware['after']>;

export const requestId = (route: Pick<Route, 'id'>): ApiMiddleware => {
  const started = new WeakMap<object, number>();
  const finish: Finish = (request) => {
    const { context, event, response } = request;
    if (response)
      response.headers = {
        ...response.headers,
        ...context.responseHeaders,
        'X-Request-ID': context.requestId,
      };
    const orgIds = context.scope?.orgIds ?? [];
    log.info('request', {
      requestId: context.requestId,
      gatewayRequestId: event.requestContext?.requestId,
      route: route.id,
      method: event.requestContext?.http?.method,
      status: response?.statusCode,
      durationMs: Math.round(performance.now() - (started.get(request) ?? performance.now())),
      principal: context.principal?.id ?? null,
      organisation: event.pathParameters?.org_id ?? (orgIds.length === 1 ? orgIds[0] : null),
    });
  };
  return {
    before: (request) => {
      started.set(request, performance.now());
      const sent = request.event.headers?.['x-request-id'];
      request.context.requestId =
        sent && SAFE_ID.test(sent) ? sent : (request.event.requestContext?.requestId ?? randomUUID());
    },
    after: finish,
    onError: finish,
  };
};
