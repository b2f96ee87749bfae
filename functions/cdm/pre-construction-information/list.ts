import { listHandler } from '#shared/http/crud-handlers';
import { preConstructionInformation } from '#shared/resources/cdm/definitions';

/** GET /v3/pre-construction-information: packs in every organisation the caller may view; `filter[scheme]`. */
export const handler = listHandler('listPreConstructionInformation', preConstructionInformation);
