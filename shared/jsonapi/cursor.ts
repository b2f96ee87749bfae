/**
 * Collection cursors (`page[cursor]`): where a page ended, sealed so that only the service makes one.
 * A cursor is `<payload>.<tag>` in base64url: the payload is the reader's position (JSON), the tag an
 * HMAC-SHA256 over the query it pages (its path, sort and filters) and the payload. A cursor forged,
 * edited, or carried to another collection or query is refused with a 400, never read. It names no
 * partition: the data layer builds every key from the caller's scope, so no cursor can leave it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Position } from '../data/collection-query';
import { ValidationError } from './errors';

const PARAMETER = 'page[cursor]';
/**
 * Sealed into every tag: changed whenever a collection's reader changes what its positions hold (c2: a
 * record's history and a subscription's deliveries resume from index keys), so a cursor made before is a
 * 400, never a position the new reader cannot resume from.
 */
const VERSION = 'c2';

const tag = (key: Buffer, binding: string, payload: string) =>
  createHmac('sha256', key).update(`${VERSION}\n${binding}\n${payload}`).digest();

/** The cursor for `position` in the query `binding` names. */
export const sealCursor = (key: Buffer, binding: string, position: Position): string => {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${tag(key, binding, payload).toString('base64url')}`;
};

/**
 * The 400 for a cursor sealed for this query whose position the page's reader cannot resume from: made by
 * another reader of it (an older deployment's). Nothing is read from it.
 */
export const unfitCursor = (): ValidationError =>
  new ValidationError({
    detail:
      'page[cursor] was made by an earlier version of this list and cannot resume it; start again from the first page with an empty page[cursor].',
    source: { parameter: PARAMETER },
  });

/** The position a cursor made by `sealCursor` for the same query holds; a 400 for anything else. */
export const openCursor = (key: Buffer, binding: string, cursor: string): Position => {
  const [payload = '', mac = '', ...rest] = cursor.split('.');
  const given = Buffer.from(mac, 'base64url');
  const expected = tag(key, binding, payload);
  if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ValidationError({
      detail:
        'page[cursor] is not a cursor this collection gave for this query (sort and filters as sent with it); start again with an empty page[cursor].',
      source: { parameter: PARAMETER },
    });
  }
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Position;
};
