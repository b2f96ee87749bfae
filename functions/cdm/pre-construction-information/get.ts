import { getHandler } from '#shared/http/crud-handlers';
import { preConstructionInformation } from '#shared/resources/cdm/definitions';

/** GET /v3/pre-construction-information/{pre_construction_information_id} */
export const handler = getHandler(
  'getPreConstructionInformation',
  preConstructionInformation,
  'pre_construction_information_id',
);
