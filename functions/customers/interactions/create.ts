import { createHandler } from '#shared/http/crud-handlers';
import { interactionCrud } from '#shared/resources/customers/writes';

/** POST /v3/orgs/{org_id}/customers/interactions: 201 with Location */
export const handler = createHandler('createCustomerInteraction', interactionCrud);
