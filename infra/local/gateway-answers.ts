/**
 * The answers the local stack gives itself where API Gateway would answer without a function (a body
 * over its limit, an unparsable request, a function that failed or could not start): a JSON:API error
 * document with the security headers and an X-Request-ID, like every answer of the API.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { SECURITY_HEADERS } from '#shared/http/middlewares/security-headers';
import { Reply, toResult } from '#shared/http/reply';
import { errorDocument } from '#shared/jsonapi/document';
import { ApiError, errorObjects } from '#shared/jsonapi/errors';

/** API Gateway's answer when the function failed to answer at all. */
export class BadGatewayError extends ApiError {
  constructor(detail?: string) {
    super(502, 'Bad gateway', { ...(detail && { detail }) });
  }
}

export const gatewayAnswer = (error: ApiError) => {
  const result = toResult(new Reply(error.status, errorDocument(errorObjects(error))));
  return { ...result, headers: { ...SECURITY_HEADERS, ...result.headers, 'X-Request-ID': randomUUID() } };
};

/** The same answer as raw HTTP/1.1, for a socket no HTTP server parsed; the connection then closes. */
export const rawGatewayAnswer = (error: ApiError): string => {
  const result = gatewayAnswer(error);
  const head = [
    `HTTP/1.1 ${result.statusCode} ${STATUS_CODES[result.statusCode ?? 400] ?? ''}`,
    ...Object.entries(result.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${result.body ?? ''}`;
};
