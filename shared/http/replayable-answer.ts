/**
 * What of a write's answer an idempotency record may keep. Some answers carry a value meant for the
 * caller once, which the service otherwise never keeps in plain text; a replay must not bring it back
 * from a table item that lives a day. One rule for every kept answer, whatever route made it, in the
 * primary data and included resources alike:
 * - a one-time secret is an attribute named `secret` or ending in `_secret` (`ONE_TIME_SECRET`: a
 *   service-account key's `client_secret`, a webhook subscription's signing `secret`; a route that answers
 *   a new secret names it so, and is masked without further ado). It is masked as a service-account key's
 *   GET shows one (twelve `*` and the last four characters); a `meta.secret_shown_once: true` becomes false.
 *   A value already masked (an answer that only shows one) is kept as it is;
 * - a presigned S3 address (`meta.upload`, `meta.download`): a bearer capability signed with the
 *   function's credentials (in AWS its URL carries the session token); removed.
 * The answer names what it left out in top-level `meta.replay` (JSON pointers), so a replay says so.
 */
import { pointer } from '../jsonapi/pointer';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one declaration of which attributes hold a one-time secret (see above). */
export const ONE_TIME_SECRET = /(^|_)secret$/;
const PRESIGNED = ['upload', 'download'] as const;

export const maskSecret = (secret: string) => `${'*'.repeat(12)}${secret.slice(-4)}`;
const masked = (value: string) => value.startsWith('*'.repeat(12));

/** A resource object without its one-time values, and the pointers of what changed. */
const keptResource = (resource: Json, path: (string | number)[]): { resource: Json; changed: string[] } => {
  const meta = isObject(resource.meta) ? { ...resource.meta } : undefined;
  const attributes = isObject(resource.attributes) ? { ...resource.attributes } : undefined;
  const changed: string[] = [];
  if (attributes) {
    for (const [name, value] of Object.entries(attributes)) {
      if (ONE_TIME_SECRET.test(name) && typeof value === 'string' && !masked(value)) {
        attributes[name] = maskSecret(value);
        changed.push(pointer([...path, 'attributes', name]));
      }
    }
  }
  if (changed.length > 0 && meta?.secret_shown_once === true) meta.secret_shown_once = false;
  for (const name of PRESIGNED) {
    if (meta && name in meta) {
      delete meta[name];
      changed.push(pointer([...path, 'meta', name]));
    }
  }
  if (changed.length === 0) return { resource, changed };
  return {
    resource: { ...resource, ...(attributes && { attributes }), ...(meta && { meta }) },
    changed,
  };
};

/**
 * The body to keep for replays: the document with one-time values masked or removed and a top-level
 * `meta.replay` naming them; anything else (no such value, not JSON) as it was.
 */
export const replayableBody = (body: string, contentType: string | undefined): string => {
  if (!/json/i.test(contentType ?? '') || body === '') return body;
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return body;
  }
  if (!isObject(document)) return body;
  const changed: string[] = [];
  const keep = (value: unknown, path: (string | number)[]) => {
    if (!isObject(value)) return value;
    const kept = keptResource(value, path);
    changed.push(...kept.changed);
    return kept.resource;
  };
  const data = Array.isArray(document.data)
    ? document.data.map((r, i) => keep(r, ['data', i]))
    : keep(document.data, ['data']);
  const included = Array.isArray(document.included)
    ? document.included.map((r, i) => keep(r, ['included', i]))
    : undefined;
  if (changed.length === 0) return body;
  return JSON.stringify({
    ...document,
    data,
    ...(included && { included }),
    meta: {
      ...(isObject(document.meta) ? document.meta : {}),
      replay: {
        omitted: changed,
        detail:
          'This is a replay of an answer whose secrets and presigned addresses were shown once and not kept; read the resource for what it shows now.',
      },
    },
  });
};
