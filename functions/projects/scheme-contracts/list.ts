import { listHandler } from '#shared/http/crud-handlers';
import { schemeContracts } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/scheme-contracts: deleted ones are left out */
export const handler = listHandler('listSchemeContracts', schemeContracts);
