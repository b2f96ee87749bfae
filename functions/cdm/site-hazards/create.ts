import { cdmHandler } from '../cdm-handler';
import { preConstructionInformation, siteHazards } from '../definitions';
import { createHazard, hazardDocuments } from '../pre-construction';

/** POST /v3/pre-construction-information/{id}/site-hazards: the Client records a site hazard. */
export const handler = cdmHandler('createSiteHazard', {
  path: [preConstructionInformation, 'pre_construction_information_id'],
  write: createHazard,
  answer: siteHazards,
  created: true,
});

export const requestBody = hazardDocuments.create;
