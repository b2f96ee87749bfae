import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { preConstructionInformation, siteHazards } from '../definitions';

/** GET /v3/pre-construction-information/{id}/site-hazards: `filter[status]=active|retired`. */
export const handler = jsonApiHandler('listSiteHazards', (request) =>
  listChildren(
    request,
    preConstructionInformation,
    request.params.pre_construction_information_id,
    siteHazards,
    'site_hazards',
  ),
);
