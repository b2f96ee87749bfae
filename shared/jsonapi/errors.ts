/**
 * The error catalogue. Every failure a client can see is an `ApiError`; it renders itself as a JSON:API
 * error object with the spec's title and code and a fresh UUID. One `onError` middleware maps them.
 */
import { randomUUID } from 'node:crypto';

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
  header?: string;
}

export interface ErrorObject {
  id: string;
  status: string;
  title: string;
  code?: string;
  detail?: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
}

interface ErrorOptions {
  detail?: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
  code?: string;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly detail: string | undefined;
  readonly source: ErrorSource | undefined;
  readonly meta: Record<string, unknown> | undefined;
  readonly code: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly title: string,
    options: ErrorOptions = {},
  ) {
    super(options.detail ?? title);
    this.name = new.target.name;
    this.detail = options.detail;
    this.source = options.source;
    this.meta = options.meta;
    this.code = options.code;
    this.headers = options.headers ?? {};
  }

  toErrorObject(): ErrorObject {
    return {
      id: randomUUID(),
      status: String(this.status),
      title: this.title,
      ...(this.code && { code: this.code }),
      ...(this.detail && { detail: this.detail }),
      ...(this.source && { source: this.source }),
      ...(this.meta && { meta: this.meta }),
    };
  }
}

/** 400: invalid body, query parameters or headers. Several problems travel as one error per problem. */
export class ValidationError extends ApiError {
  readonly problems: ValidationError[];

  constructor(options: ErrorOptions & { problems?: ValidationError[] } = {}) {
    super(400, 'A validation error was encountered', options);
    this.problems = options.problems ?? [];
  }
}

/**
 * 422: a well-formed request naming what cannot be (a recipient who is not of the organisation, an
 * escalation time out of bounds, a change that would mute safety notifications). The document's shape is
 * a 400; this is what it says. One error object per problem, each with its pointer, and the `code` when
 * the area names its refusals (NOTIFICATIONS.001).
 */
export class UnprocessableContentError extends ApiError {
  readonly problems: UnprocessableContentError[];

  constructor(problems: readonly { pointer: string; detail: string }[], code?: string) {
    const [first] = problems;
    super(422, 'Unprocessable content', {
      ...(code !== undefined && { code }),
      ...(first && { detail: first.detail, source: { pointer: first.pointer } }),
    });
    this.problems =
      problems.length > 1 ? problems.map((problem) => new UnprocessableContentError([problem], code)) : [];
  }
}

export class UnauthorisedError extends ApiError {
  constructor(detail = 'Missing, invalid or expired credentials.') {
    super(401, 'You are not authorised to access this resource', {
      code: 'AUTH.001',
      detail,
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  }
}

export class ForbiddenError extends ApiError {
  constructor(detail: string) {
    super(403, 'Forbidden', { code: 'AUTH.002', detail });
  }
}

/** 403: the route's feature is switched off in the organisation (its feature configuration says so). */
export class FeatureSwitchedOffError extends ApiError {
  constructor(feature: string) {
    super(403, 'Forbidden', {
      code: 'FEATURE.001',
      detail: `The ${feature} feature is switched off for this organisation.`,
      meta: { feature },
    });
  }
}

export class NotFoundError extends ApiError {
  constructor(detail = 'The resource does not exist or is not visible to you.') {
    super(404, 'Resource not found', { code: 'NOT_FOUND.001', detail });
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(allowed: readonly string[]) {
    super(405, 'Method not allowed', {
      detail: `This path accepts ${allowed.join(', ')}.`,
      headers: { Allow: allowed.join(', ') },
    });
  }
}

export class NotAcceptableError extends ApiError {
  constructor(detail: string) {
    super(406, 'Not acceptable', { detail, source: { header: 'Accept' } });
  }
}

export class ConflictError extends ApiError {
  constructor(detail: string, source?: ErrorSource) {
    super(409, 'Conflict', { code: 'CONFLICT.001', detail, ...(source && { source }) });
  }
}

/**
 * 409: a declared transition refused by the record's state or a guard: the state, the verb, the verbs open
 * to the caller now and every reason this one is not, as data (`engine/lifecycle.ts`).
 */
export class StateRefusedError extends ApiError {
  constructor(
    refusal: {
      state: string;
      verb: string;
      allowed: readonly string[];
      reasons: readonly string[];
    },
    /** The state's attribute, when a PATCH alias named it (`engine/transition.ts`). */
    source?: ErrorSource,
  ) {
    super(409, 'Conflict', {
      code: 'STATE.001',
      detail: refusal.reasons.join(' '),
      meta: { ...refusal },
      ...(source && { source }),
    });
  }
}

/** 412: an `If-Match` names a version of the record that is no longer current; nothing was written. */
export class PreconditionFailedError extends ApiError {
  constructor(current: string) {
    super(412, 'Precondition failed', {
      code: 'PRECONDITION.001',
      detail: 'The record changed since the version If-Match names; read it again and reapply the change.',
      source: { header: 'If-Match' },
      meta: { etag: current },
      headers: { ETag: current },
    });
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(413, 'Payload too large', { detail: `Request bodies are limited to ${limitBytes} bytes.` });
  }
}

/** 413 for a record that would grow larger than the table stores (each request may be small). */
export class RecordTooLargeError extends ApiError {
  constructor(detail: string) {
    super(413, 'Payload too large', { detail });
  }
}

/** 431: the request line and headers together exceed what the HTTP layer accepts. */
export class HeaderFieldsTooLargeError extends ApiError {
  constructor() {
    super(431, 'Request header fields too large', {
      detail: 'The request line and headers are larger than the server accepts.',
    });
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor(detail: string) {
    super(415, 'Unsupported media type', { detail, source: { header: 'Content-Type' } });
  }
}

/** 429: the organisation's or the client's request budget for this window is spent. */
export class TooManyRequestsError extends ApiError {
  constructor(budget: 'organisation' | 'client', retryAfterSeconds: number) {
    super(429, 'Too Many Requests', {
      detail: `The ${budget}'s request budget for this minute is spent; retry after the time in Retry-After.`,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** 503: a dependency is overloaded or slow right now; the client may retry after `retryAfterSeconds`. */
export class ServiceUnavailableError extends ApiError {
  constructor(retryAfterSeconds = 2) {
    super(503, 'Service unavailable', {
      detail: 'The service is busy; retry after the time in Retry-After.',
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

export class InternalError extends ApiError {
  constructor() {
    super(500, 'Internal Server Error');
  }
}

/** The error objects a failure renders as: a validation error with several problems renders each. */
export const errorObjects = (error: ApiError): ErrorObject[] =>
  (error instanceof ValidationError || error instanceof UnprocessableContentError) &&
  error.problems.length > 0
    ? error.problems.map((p) => p.toErrorObject())
    : [error.toErrorObject()];
