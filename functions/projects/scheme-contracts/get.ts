import { getHandler } from '#shared/http/crud-handlers';
import { schemeContracts } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/scheme-contracts/{scheme_contract_id} */
export const handler = getHandler('getSchemeContract', schemeContracts, 'scheme_contract_id');
