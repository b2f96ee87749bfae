/**
 * Conditional requests (RFC 9110 §13): every single-record answer carries a strong `ETag`; `If-Match`
 * on a route about an existing record makes its write conditional on that record's version, and
 * `If-None-Match` on a GET of one answers 304 while the client's copy is current.
 *
 * The tag is a short hash of the record's type, id and stored `version`, so it is opaque (a client cannot
 * do sums on it, and it names one record, not a counter shared by all) and it changes exactly when the
 * record is written. It covers the stored record: attributes a read derives from other records and
 * `include`d resources are not part of it.
 */
import { createHash } from 'node:crypto';
import type { Precondition } from '../data/scope';
import { ValidationError } from '../jsonapi/errors';
import type { Route } from './route';

/** The strong entity tag of one version of a record, quotes included. */
export const entityTagOf = (record: { type: string; id: string; version: number }): string =>
  `"${createHash('sha256')
    .update(`${record.type}/${record.id}/${record.version}`)
    .digest('base64url')
    .slice(0, 22)}"`;

/** `entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE` (RFC 9110 §8.8.3), one of a comma-separated list. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** An `If-Match` or `If-None-Match` value: `*`, or its entity tags; a malformed one is 400 at the header. */
export const parseEntityTags = (value: string, header: 'If-Match' | 'If-None-Match'): '*' | string[] => {
  const text = value.trim();
  if (text === '*') return '*';
  const tags = text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.length === 0 || !tags.every((tag) => ENTITY_TAG.test(tag)))
    throw new ValidationError({
      detail: `${header} must be * or a list of entity tags ("…"), as an ETag of this API gives them.`,
      source: { header },
    });
  return tags;
};

/** `If-Match` compares strongly (§13.1.1): a weak tag matches nothing. */
export const matchesIfMatch = (tags: Precondition['ifMatch'], current: string): boolean =>
  tags === '*' || tags.includes(current);

/** `If-None-Match` compares weakly (§13.1.2): `W/"x"` and `"x"` are the same version. */
export const matchesIfNoneMatch = (tags: '*' | readonly string[], current: string): boolean =>
  tags === '*' || tags.some((tag) => tag.replace(/^W\//, '') === current);

/**
 * The path parameter naming the existing record a route acts on, which `If-Match` is about: the last
 * one of a route ending in it (a record's GET, PATCH, DELETE) or of a POST on one (`…/{id}/approve`).
 * Routes that create a record have none: their last parameter names where it goes, not what it was.
 */
export const preconditionTarget = (
  route: Pick<Route, 'method' | 'path' | 'declared' | 'answers'>,
): string | undefined => {
  const segments = route.path.split('/');
  const parameter = (segment: string | undefined) => /^\{(.+)\}$/.exec(segment ?? '')?.[1];
  const last = parameter(segments.at(-1));
  if (last) return last;
  const creates = route.declared?.operation === 'create' || route.answers?.status === 201;
  return route.method === 'POST' && !creates ? parameter(segments.at(-2)) : undefined;
};

/** The request's precondition on its route's record, if it sends `If-Match` and the route names one. */
export const preconditionOf = (
  route: Route,
  params: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string | undefined>>,
): Precondition | undefined => {
  const value = headers['if-match'];
  if (value === undefined) return undefined;
  const ifMatch = parseEntityTags(value, 'If-Match');
  const target = preconditionTarget(route);
  const id = target === undefined ? undefined : params[target];
  return id === undefined ? undefined : { id, ifMatch };
};
