/**
 * An API Gateway HTTP API (payload 2.0) event, as the gateway hands one to a function: for tests that call
 * a handler directly, without the local adapter. Only what varies between them is given.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export const gatewayEvent = ({
  method,
  route,
  path,
  query = '',
  headers = {},
  pathParameters,
  body,
}: {
  method: string;
  /** The route's path template (`/v3/echo/{thing_id}`): the event's routeKey. */
  route: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: string;
}): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: `${method} ${route}`,
  rawPath: path,
  rawQueryString: query,
  headers: { host: 'api.example', ...headers },
  ...(pathParameters && { pathParameters }),
  isBase64Encoded: false,
  ...(body !== undefined && { body }),
  requestContext: {
    accountId: 'a',
    apiId: 'b',
    domainName: 'api.example',
    domainPrefix: 'api',
    http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
    requestId: 'r',
    routeKey: `${method} ${route}`,
    stage: '$default',
    time: '',
    timeEpoch: 0,
  },
});
