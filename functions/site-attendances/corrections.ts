/**
 * Correcting an attendance's times (a forgotten sign-out, a kiosk clock): each change keeps the value it
 * replaces, who made it, when and why, in `corrections` (`rules/corrections.ts`); the attendance's audit
 * history has them too.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import type { StoredResource } from '#shared/data/stored-resource';
import { defineWrite, type WriteRequest } from '#shared/engine/define-write';
import { changedRecord } from '#shared/engine/record-writes';
import { requiredText, timestamp } from '#shared/jsonapi/attribute-types';
import { ValidationError } from '#shared/jsonapi/errors';
import { assertSameId } from '#shared/jsonapi/request-document';
import { attendanceBuckets, siteAttendances } from './definitions';
import { corrected } from './rules/corrections';

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

/** PATCH /v3/site-attendances/{id}: the attendance as its handler read it is the one fact. */
export const correctTimes = defineWrite({
  document: correctionDocument,
  facts: async ({ attendance }: WriteRequest & { principal: Principal; attendance: StoredResource }) =>
    attendance,
  decide: ({ principal, now }, { data }, attendance) => {
    assertSameId(data.id, attendance.id);
    const { correction_reason: reason, ...times } = data.attributes;
    // Attendances are kept by the month their ids were made in, listed by sign-in month after month: a
    // sign-in moved to another month would list out of order and be missing from that month's registers.
    if (times.signed_in_at !== undefined && !attendanceBuckets.holds(attendance.id, times.signed_in_at))
      throw new ValidationError({
        detail: `A correction keeps the sign-in in the month (UTC) the attendance was recorded in, by which it is kept (all months before ${attendanceBuckets.since} count as one).`,
        source: { pointer: '/data/attributes/signed_in_at' },
      });
    const attributes = corrected(attendance.attributes, times, reason, principal.id, now);
    return changedRecord(siteAttendances, attendance, { attributes }, now);
  },
  // The next version, conditional on the one read.
  ops: ({ attendance }, next) => ({ ops: [{ replace: next, was: attendance }] }),
  answer: (next) => next,
});
