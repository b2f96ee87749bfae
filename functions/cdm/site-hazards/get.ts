import { getHandler } from '#shared/http/crud-handlers';
import { siteHazards } from '#shared/resources/cdm/definitions';

/** GET /v3/site-hazards/{site_hazard_id} */
export const handler = getHandler('getSiteHazard', siteHazards, 'site_hazard_id');
