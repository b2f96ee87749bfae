import { schemes } from '#functions/projects/definitions';
import { cdmHandler } from '../cdm-handler';
import { preConstructionInformation } from '../definitions';
import { createPack, packDocuments } from '../pre-construction';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/pre-construction-information: the Client's pack, one per scheme. */
export const handler = cdmHandler('createPreConstructionInformation', {
  path: [schemes, 'scheme_id'],
  write: createPack,
  answer: preConstructionInformation,
  created: true,
});

export const requestBody = packDocuments.create;
