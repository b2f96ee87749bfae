/** JSON:API negotiation and the body size limit, before anything reads the body. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PayloadTooLargeError } from '../../jsonapi/errors';
import { checkAccept, checkContentType, checkTextContentType } from '../../jsonapi/media-type';
import type { ApiMiddleware } from '../api-context';
import type { Route } from '../route';

/** Request bodies above 1 MiB are refused (files travel through presigned S3 URLs, never through Lambda). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const bodyBytes = (event: APIGatewayProxyEventV2): number =>
  event.body === undefined
    ? 0
    : event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').length
      : Buffer.byteLength(event.body);

export const negotiate = (route: Route): ApiMiddleware => ({
  before: ({ event }) => {
    checkAccept(event.headers?.accept);
    const size = bodyBytes(event);
    if (size > BODY_LIMIT_BYTES) throw new PayloadTooLargeError(BODY_LIMIT_BYTES);
    if (size > 0 && route.bodyType === undefined) checkContentType(event.headers?.['content-type']);
    if (route.bodyType === 'text') checkTextContentType(event.headers?.['content-type']);
  },
});
