import { listHandler } from '#shared/http/crud-handlers';
import { constructionPhasePlans } from '#shared/resources/cdm/definitions';

/** GET /v3/construction-phase-plans: plans in every organisation the caller may view; `filter[scheme]`, `filter[status]`. */
export const handler = listHandler('listConstructionPhasePlans', constructionPhasePlans);
