import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { preConstructionInformation } from '../definitions';
import { hazardProposals } from './definition';

/** GET /v3/pre-construction-information/{id}/hazard-proposals: `filter[status]=pending|accepted|rejected`. */
export const handler = jsonApiHandler('listHazardProposals', (request) =>
  listChildren(
    request,
    preConstructionInformation,
    request.params.pre_construction_information_id,
    hazardProposals,
  ),
);
