/** What a handler answers with, and how it becomes an API Gateway v2 result with the spec's headers. */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ENTITY_TAG, JSONAPI_MEDIA_TYPE, type ResourceDocument } from '../jsonapi/document';

export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly contentType: string = JSONAPI_MEDIA_TYPE,
    /** `Set-Cookie` values (API Gateway v2 sends each as its own header). */
    readonly cookies: readonly string[] = [],
  ) {}
}

/**
 * 201 for a created resource. `Location` is the resource's own `links.self`, which JSON:API requires the
 * two to match, and which comes from the route table (`jsonapi/links.ts`) like every other link.
 */
export const created = (document: ResourceDocument, headers: Record<string, string> = {}): Reply => {
  const self = document.data.links?.self;
  if (!self) throw new Error(`A created ${document.data.type} has no URL to send as its Location`);
  return new Reply(201, document, { ...headers, Location: self });
};

/**
 * 202 for work accepted to be done outside the request: the document is the job doing it, and
 * `Content-Location` its own `links.self`, where its status is read (JSON:API's recommendation for
 * asynchronous processing).
 */
export const accepted = (document: ResourceDocument): Reply => {
  const self = document.data.links?.self;
  if (!self) throw new Error(`An accepted ${document.data.type} has no URL to send as its Content-Location`);
  return new Reply(202, document, { 'Content-Location': self });
};

/** The entity tag a single-record document carries (`engine/single.ts` sets it), for its `ETag` header. */
const entityTag = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null ? (body as ResourceDocument)[ENTITY_TAG] : undefined;

/**
 * Every response carries Content-Type and Content-Length, and one record's its `ETag`; X-Request-ID is
 * added by its middleware.
 */
export const toResult = (reply: Reply): APIGatewayProxyStructuredResultV2 => {
  const body =
    reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const tag = entityTag(reply.body);
  return {
    statusCode: reply.status,
    headers: {
      ...(tag !== undefined && { ETag: tag }),
      ...reply.headers,
      ...(body !== '' && { 'Content-Type': reply.contentType }),
      'Content-Length': String(Buffer.byteLength(body)),
    },
    body,
    ...(reply.cookies.length > 0 && { cookies: [...reply.cookies] }),
  };
};
