/**
 * Notification preferences as the API reads and writes them: the PATCH document (strict: an unknown
 * category or member is 400 with its pointer), the attributes every answer has, and the resource
 * (its id is the organisation's: a caller has one set per organisation, at its own path).
 */
import * as z from 'zod';
import { routePath } from '#shared/http/links';
import { CATEGORIES, type Category, DIGESTS, type Preferences, TIME_OF_DAY } from './rules/preferences';

export const PREFERENCES_TYPE = 'notification-preferences';

const perCategory = <T extends z.ZodType>(value: T) =>
  z.strictObject(Object.fromEntries(CATEGORIES.map((category) => [category, value])) as Record<Category, T>);

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

export const preferencesResource = (orgId: string, preferences: Preferences, baseUrl: string) => ({
  type: PREFERENCES_TYPE,
  id: orgId,
  attributes: { ...preferences },
  relationships: { organisation: { data: { type: 'organisations', id: orgId } } },
  meta: {},
  links: { self: `${baseUrl}${routePath('getNotificationPreferences', { org_id: orgId })}` },
});
