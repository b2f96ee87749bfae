/**
 * JSON:API 1.1 content negotiation. The only media type parameters JSON:API allows are `ext` and
 * `profile`; this server supports no extensions, so any `ext` makes a media type unsupported.
 */
import { JSONAPI_MEDIA_TYPE } from './document';
import { NotAcceptableError, UnsupportedMediaTypeError } from './errors';

interface MediaType {
  type: string;
  params: Record<string, string>;
}

const parseMediaType = (value: string): MediaType => {
  const [type = '', ...params] = value.split(';');
  return {
    type: type.trim().toLowerCase(),
    params: Object.fromEntries(
      params
        .map((p) => p.split('='))
        .map(([k = '', v = '']) => [k.trim().toLowerCase(), v.trim().replace(/^"|"$/g, '')])
        .filter(([k]) => k !== ''),
    ),
  };
};

/** Splits an Accept header on commas that are not inside quoted parameter values. */
const splitList = (header: string): string[] => header.match(/(?:[^,"]|"[^"]*")+/g) ?? [];

const usable = ({ params }: MediaType, allowQuality: boolean): boolean =>
  Object.keys(params).every((k) => k === 'profile' || (allowQuality && k === 'q')) && params.q !== '0';

/** 415 for a JSON:API request body whose media type is not exactly ours (bar `profile`). */
export const checkContentType = (contentType: string | undefined): void => {
  const media = parseMediaType(contentType ?? '');
  if (media.type !== JSONAPI_MEDIA_TYPE) {
    throw new UnsupportedMediaTypeError(`Send request bodies as ${JSONAPI_MEDIA_TYPE}.`);
  }
  if (!usable(media, false)) {
    throw new UnsupportedMediaTypeError(
      `${JSONAPI_MEDIA_TYPE} may carry only the profile parameter here (no extensions are supported).`,
    );
  }
};

/** 415 unless a text body (the SNS receiver) is `text/plain` or `application/json`, any charset. */
export const checkTextContentType = (contentType: string | undefined): void => {
  const { type } = parseMediaType(contentType ?? '');
  if (type !== 'text/plain' && type !== 'application/json') {
    throw new UnsupportedMediaTypeError('Send the message as text/plain (or application/json).');
  }
};

/**
 * 406 when the Accept header lists the JSON:API media type and every instance of it carries
 * parameters other than `profile` (and a quality), per JSON:API 1.1.
 */
export const checkAccept = (accept: string | undefined): void => {
  if (!accept) return;
  const jsonApi = splitList(accept)
    .map(parseMediaType)
    .filter((m) => m.type === JSONAPI_MEDIA_TYPE);
  if (jsonApi.length > 0 && !jsonApi.some((m) => usable(m, true))) {
    throw new NotAcceptableError(
      `Accept ${JSONAPI_MEDIA_TYPE} without parameters other than profile; no extensions are supported.`,
    );
  }
};

/**
 * Whether the client names the JSON:API media type among those it accepts (not `*\/*` alone): where a
 * route answers a browser otherwise (an SSO callback's redirect), such a client is answered the document.
 */
export const asksForJsonApi = (accept: string | undefined): boolean =>
  splitList(accept ?? '')
    .map(parseMediaType)
    .some((m) => m.type === JSONAPI_MEDIA_TYPE && usable(m, true));

/**
 * Whether the client asks for an HTML page (lists `text/html`, as a browser following a link or posting
 * a form does) and not for the JSON:API media type: where a route answers a person in a browser with a
 * page of its own (`Answer.page`), an API client is still answered the document.
 */
export const asksForHtml = (accept: string | undefined): boolean =>
  !asksForJsonApi(accept) &&
  splitList(accept ?? '')
    .map(parseMediaType)
    .some((m) => m.type === 'text/html' && !/^0(\.0*)?$/.test(m.params.q ?? ''));
