/**
 * Notification preferences' schemas: the PATCH document (strict: an unknown category or member is 400
 * with its pointer) and the attributes every answer has. Loaded by the write and the document only: a
 * read loads no zod (`preference-resource.ts` presents them).
 */
import * as z from 'zod';
import { NOTIFICATION_CATEGORIES, type NotificationCategory } from '#shared/domain/notification-rules';
import { PREFERENCES_TYPE } from './preference-resource';
import { DIGESTS, TIME_OF_DAY } from './rules/preferences';

const perCategory = <T extends z.ZodType>(value: T) =>
  z.strictObject(
    Object.fromEntries(NOTIFICATION_CATEGORIES.map((category) => [category, value])) as Record<
      NotificationCategory,
      T
    >,
  );

const timeOfDay = () =>
  z
    .string()
    .regex(TIME_OF_DAY, 'A time of day, HH:MM (24-hour clock).')
    .describe("When the daily digest goes, in the organisation's time zone (its settings' timezone).");

export const updatePreferencesDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal(PREFERENCES_TYPE),
      id: z.uuid().describe('The organisation’s id, as in the path.'),
      attributes: z.strictObject({
        channels: perCategory(
          z.strictObject({ inbox: z.boolean().optional(), email: z.boolean().optional() }),
        )
          .partial()
          .optional(),
        email_digest: perCategory(z.enum(DIGESTS)).partial().optional(),
        daily_digest_at: timeOfDay().optional(),
      }),
    }),
  }),
);

/** Every answer's attributes: each category's channels and digest, and the daily digest's time. */
export const preferenceAttributes = () => ({
  channels: perCategory(z.strictObject({ inbox: z.boolean(), email: z.boolean() })),
  email_digest: perCategory(z.enum(DIGESTS)),
  daily_digest_at: timeOfDay(),
});
