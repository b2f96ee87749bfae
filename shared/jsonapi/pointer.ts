/**
 * JSON Pointers (RFC 6901) for error sources. A module of its own, without zod: the well-formed input
 * check that every route runs needs it, and importing it from request-document.ts put classic zod in
 * every route's cold start, GET routes that validate no body included.
 */

/** A JSON Pointer (RFC 6901) to a member of the request document. */
export const pointer = (path: readonly PropertyKey[]) =>
  path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
