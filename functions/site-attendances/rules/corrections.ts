/**
 * Correcting an attendance's times (pure): only times that differ, an end only once it has ended, an end
 * after the start, no start in the future; each change kept with the value it replaces, who and why.
 */
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';

type Times = { signed_in_at?: string; signed_out_at?: string };

/** The attendance's attributes after the correction, with its `corrections` grown by one entry a time. */
export const corrected = (
  recorded: Record<string, unknown>,
  times: Times,
  reason: string,
  by: string,
  now: Date,
) => {
  if (times.signed_out_at !== undefined && recorded.signed_out_at === null)
    throw new ConflictError('The attendance is open: sign it out, then correct the time it ended.');
  const changes = Object.entries(times).filter(([field, value]) => value !== recorded[field]);
  if (changes.length === 0)
    throw new ValidationError({
      detail: 'Give a time that differs from the one recorded.',
      source: { pointer: '/data/attributes' },
    });
  const next = { ...recorded, ...times };
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
    ...((recorded.corrections as unknown[]) ?? []),
    ...changes.map(([field, to]) => ({
      field,
      from: recorded[field],
      to,
      reason,
      by,
      at: now.toISOString(),
    })),
  ];
  return { ...times, corrections };
};
