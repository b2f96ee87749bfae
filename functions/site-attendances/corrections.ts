/**
 * Correcting an attendance's times (a forgotten sign-out, a kiosk clock): each change keeps the value it
 * replaces, who made it, when and why, in `corrections`; the attendance's audit history has them too.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { changedRecord, replaceRecord } from '#shared/engine/record-writes';
import { requiredText, timestamp } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { siteAttendances } from './definitions';

export const correctionDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('site-attendances'),
    id: z.uuid(),
    attributes: z.strictObject({
      signed_in_at: timestamp.optional(),
      signed_out_at: timestamp.optional(),
      // Why the times change: kept with the correction.
      correction_reason: requiredText(1000),
    }),
  }),
});

export const correctTimes = async (
  scope: Scope,
  attendance: StoredResource,
  body: unknown,
  principal: Principal,
  now = new Date(),
) => {
  const { data } = parseDocument(correctionDocument, body);
  assertSameId(data.id, attendance.id);
  const { correction_reason: reason, ...times } = data.attributes;
  if (times.signed_out_at !== undefined && attendance.attributes.signed_out_at === null)
    throw new ConflictError('The attendance is open: sign it out, then correct the time it ended.');
  const changes = Object.entries(times).filter(([field, value]) => value !== attendance.attributes[field]);
  if (changes.length === 0)
    throw new ValidationError({
      detail: 'Give a time that differs from the one recorded.',
      source: { pointer: '/data/attributes' },
    });
  const next = { ...attendance.attributes, ...times };
  const [start, end] = [String(next.signed_in_at), next.signed_out_at as string | null];
  if (end !== null && end <= start)
    throw new ValidationError({
      detail: 'An attendance ends after it starts.',
      source: { pointer: '/data/attributes/signed_out_at' },
    });
  if (start > now.toISOString())
    throw new ValidationError({
      detail: 'An attendance cannot start in the future.',
      source: { pointer: '/data/attributes/signed_in_at' },
    });
  const corrections = [
    ...((attendance.attributes.corrections as unknown[]) ?? []),
    ...changes.map(([field, to]) => ({
      field,
      from: attendance.attributes[field],
      to,
      reason,
      by: principal.id,
      at: now.toISOString(),
    })),
  ];
  const changed = changedRecord(siteAttendances, attendance, { attributes: { ...times, corrections } }, now);
  return replaceRecord(scope, siteAttendances, changed);
};
