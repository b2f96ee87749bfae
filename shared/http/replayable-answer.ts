/**
 * What of a write's answer an idempotency record may keep. Some answers carry a value meant for the
 * caller once, which the service otherwise never keeps in plain text; a replay must not bring it back
 * from a table item that lives a day. Recognised by the house conventions, in the primary data and
 * included resources alike:
 * - a one-time secret: a resource whose `meta.secret_shown_once` is true (a service-account key's
 *   creation; a future signing secret follows the same rule) has each attribute named `secret` or
 *   ending in `_secret` masked as its GET shows it (twelve `*` and the last four characters), and
 *   `secret_shown_once` false;
 * - a presigned S3 address (`meta.upload`, `meta.download`): a bearer capability signed with the
 *   function's credentials (in AWS its URL carries the session token); removed.
 * The answer names what it left out in top-level `meta.replay` (JSON pointers), so a replay says so.
 */
import { pointer } from '../jsonapi/pointer';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const SECRET_NAME = /(^|_)secret$/;
const PRESIGNED = ['upload', 'download'] as const;

export const maskSecret = (secret: string) => `${'*'.repeat(12)}${secret.slice(-4)}`;

/** A resource object without its one-time values, and the pointers of what changed. */
const keptResource = (resource: Json, path: (string | number)[]): { resource: Json; changed: string[] } => {
  const meta = isObject(resource.meta) ? { ...resource.meta } : undefined;
  const attributes = isObject(resource.attributes) ? { ...resource.attributes } : undefined;
  const changed: string[] = [];
  if (meta?.secret_shown_once === true && attributes) {
    for (const [name, value] of Object.entries(attributes)) {
      if (SECRET_NAME.test(name) && typeof value === 'string') {
        attributes[name] = maskSecret(value);
        changed.push(pointer([...path, 'attributes', name]));
      }
    }
    meta.secret_shown_once = false;
  }
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
