/** What an event of the change feed serves (`eventResource` in feed.ts builds it from the stored event). */
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const eventAttributes = async () => {
  const { z, instant, jsonObject, recordName } = await loadSchemaBuilders();
  return {
    name: z.string().describe('`<resource>.<action>`, e.g. `vehicle.allocated`.'),
    occurred_at: instant(),
    subject: recordName().describe('The record it happened to.'),
    actor: z.strictObject({ type: z.enum(['users', 'service-accounts', 'system']), id: z.string() }),
    data: jsonObject().describe('The record as it became; for a deletion, its type and id.'),
  };
};
