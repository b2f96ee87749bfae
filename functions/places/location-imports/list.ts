import { listHandler } from '#shared/http/crud-handlers';
import { locationImports } from '#shared/resources/places/definitions';

/** GET /v3/orgs/{org_id}/governance/location-imports: newest first; the audit trail of bulk loads. */
export const handler = listHandler('listLocationImports', locationImports);
