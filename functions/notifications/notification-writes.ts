/** What the inbox's writes take: the PATCH document and the mark document, strict at every level. */
import * as z from 'zod';

export const updateNotificationDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('notifications'),
    id: z.uuid(),
    attributes: z
      .strictObject({
        state: z
          .enum(['seen', 'read', 'unread'])
          .optional()
          .describe('`unread` takes a read envelope back to seen; nothing goes back to unseen.'),
        saved: z
          .boolean()
          .optional()
          .describe('Saved envelopes are kept; unsaved ones expire 90 days after arrival.'),
        archived: z.boolean().optional().describe('Archiving also reads the envelope.'),
        acknowledged: z
          .boolean()
          .optional()
          .describe(
            'true acknowledges an envelope that requires it (once; it also reads it); false is refused (422): an acknowledgement is not withdrawn.',
          ),
      })
      .optional(),
  }),
});

export const MARK_IDS_MAX = 100;

export const markDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('notification-marks'),
    attributes: z
      .strictObject({
        action: z.enum(['seen', 'read', 'archive']),
        ids: z
          .array(z.uuid())
          .min(1)
          .max(MARK_IDS_MAX)
          .optional()
          .describe('Envelopes to mark, each the caller’s own.'),
        through: z
          .union([z.literal('now'), z.uuid()])
          .optional()
          .describe(
            'Everything that arrived up to this envelope (an id), or up to now: one write of the inbox’s watermark, at any inbox size.',
          ),
      })
      .refine((a) => (a.ids === undefined) !== (a.through === undefined), {
        message: 'Name either ids or through, not both.',
      }),
  }),
});
