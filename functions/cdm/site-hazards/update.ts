import { cdmHandler } from '../cdm-handler';
import { siteHazards } from '../definitions';
import { hazardDocuments, updateHazard } from '../pre-construction';

/** PATCH /v3/site-hazards/{site_hazard_id}: the Client changes it, or retires it with `status: retired`. */
export const handler = cdmHandler('updateSiteHazard', {
  path: [siteHazards, 'site_hazard_id'],
  write: updateHazard,
});

export const requestBody = hazardDocuments.update;
