/** What a handler answers with, and how it becomes an API Gateway v2 result with the spec's headers. */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document';

export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly contentType: string = JSONAPI_MEDIA_TYPE,
  ) {}
}

/** Every response carries Content-Type and Content-Length; X-Request-ID is added by its middleware. */
export const toResult = (reply: Reply): APIGatewayProxyStructuredResultV2 => {
  const body =
    reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  return {
    statusCode: reply.status,
    headers: {
      ...reply.headers,
      ...(body !== '' && { 'Content-Type': reply.contentType }),
      'Content-Length': String(Buffer.byteLength(body)),
    },
    body,
  };
};
