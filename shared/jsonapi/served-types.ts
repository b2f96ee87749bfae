/**
 * Schema types for what answers carry that no request sends: the read attributes the server sets
 * (declarations' `served`, shown closed in the OpenAPI document and checked on every test answer).
 */
import * as z from 'zod';

/** An instant the service wrote, in UTC as `Date#toISOString()` writes it (`2026-01-31T09:00:00.000Z`). */
export const instant = () => z.iso.datetime();

/** An amount of money in integer minor units, with its ISO 4217 currency. */
export const money = () =>
  z.strictObject({ amount: z.number().int(), currency: z.string().regex(/^[A-Z]{3}$/) });

/** A record named inside attributes (a comment's subject, an audit entry's), as `{type, id}`. */
export const recordName = () => z.strictObject({ type: z.string(), id: z.string() });

/** A JSON object whose members another declaration or the client decides (a record's state in an event). */
export const jsonObject = () => z.record(z.string(), z.unknown());
