/** Gives each request an id, echoed as X-Request-ID on every response (errors too) and put on each log line. */
import { randomUUID } from 'node:crypto';
import type { ApiMiddleware } from '../api-context';

// A caller's id is kept only if it cannot smuggle anything into logs or headers.
const SAFE_ID = /^[A-Za-z0-9._-]{8,128}$/;

type Stamp = NonNullable<ApiMiddleware['after']>;

const stamp: Stamp = (request) => {
  if (request.response) {
    request.response.headers = { ...request.response.headers, 'X-Request-ID': request.context.requestId };
  }
};

export const requestId = (): ApiMiddleware => ({
  before: (request) => {
    const sent = request.event.headers?.['x-request-id'];
    request.context.requestId = sent && SAFE_ID.test(sent) ? sent : randomUUID();
  },
  after: stamp,
  onError: stamp,
});
