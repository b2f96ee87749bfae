/**
 * Notification rules' schemas: the PATCH document (strict; overrides by rule id, null putting a rule back
 * to its default) and the attributes every answer has. Loaded by the write and the document only.
 */
import * as z from 'zod';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_SEVERITIES } from '#shared/domain/notification-rules';

const recipient = () =>
  z
    .union([
      z.strictObject({
        relationship: z.string().describe("A relationship of the event's subject naming users."),
      }),
      z.strictObject({
        permission: z.string().describe("Every user holding it in the event's organisation."),
      }),
      z.strictObject({ named: z.literal('recipients').describe('The users and teams the subject names.') }),
    ])
    .describe('Whom the rule notifies.');

const override = () =>
  z.strictObject({
    enabled: z.boolean().optional(),
    recipients: z.array(recipient()).min(1).max(10).optional(),
    severity: z.enum(NOTIFICATION_SEVERITIES).optional(),
    requires_ack: z.boolean().optional(),
  });

const ruleId = () => z.string().max(100).describe('A rule id, as `rules` lists them.');

export const updateRulesDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('notification-rules'),
      id: z.uuid(),
      attributes: z.strictObject({
        overrides: z
          .record(ruleId(), override().nullable())
          .describe(
            'Changes by rule id: what they name replaces the default; null puts the rule back to its default.',
          ),
      }),
    }),
  }),
);

/** Every answer's attributes: the organisation's overrides, and every rule as it applies here. */
export const ruleSettingsAttributes = () => ({
  overrides: z.record(ruleId(), override()).describe("The organisation's changes to the shipped rules."),
  rules: z
    .record(
      ruleId(),
      z.strictObject({
        area: z.string().describe('The area that ships it.'),
        event: z.string().describe('The event it answers.'),
        category: z.enum(NOTIFICATION_CATEGORIES),
        severity: z.enum(NOTIFICATION_SEVERITIES),
        recipients: z.array(recipient()),
        requires_ack: z.boolean(),
        tell_actor: z.boolean().describe('Whether whoever acted is told of their own act.'),
        enabled: z.boolean(),
        overridden: z.boolean().describe('Whether the organisation changed it.'),
      }),
    )
    .describe('Every rule every area ships, with the overrides applied.'),
});
