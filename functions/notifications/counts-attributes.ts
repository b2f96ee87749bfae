/** The inbox's counts as answered (`notification-counts`): built only when the document is. */

import { NOTIFICATION_CATEGORIES } from '#shared/domain/notification-rules';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const countsAttributes = async () => {
  const { z } = await loadSchemaBuilders();
  const tally = z.strictObject({ unseen: z.number(), unread: z.number() });
  return {
    unseen: z.number().describe('Envelopes not yet seen, in the caller’s organisations.'),
    unread: z.number().describe('Envelopes not yet read (unseen or seen).'),
    categories: z
      .record(z.string(), tally)
      .describe(
        `The same counts by category (${NOTIFICATION_CATEGORIES.join(', ')}); a category with none is absent.`,
      ),
  };
};
