/**
 * What an unsubscribe link names, as answered (`notification-unsubscribes`): built only when the document
 * is. Its confirmation is a read, and a read loads no zod.
 */
import { NOTIFICATION_CATEGORIES } from '#shared/domain/notification-rules';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const unsubscribeAttributes = async () => {
  const { z } = await loadSchemaBuilders();
  return {
    category: z.enum(NOTIFICATION_CATEGORIES).describe('The category whose e-mails the link stops.'),
    organisation: z.string().describe("The organisation's id: the link stops its e-mails only."),
    email: z.boolean().describe("Whether this category's e-mails are still sent to the link's user."),
  };
};
