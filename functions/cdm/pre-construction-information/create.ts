import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { preConstructionInformation } from '#shared/resources/cdm/definitions';
import { createPack, packDocuments } from '#shared/resources/cdm/pre-construction';
import { schemes } from '#shared/resources/projects/definitions';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/pre-construction-information: the Client's pack, one per scheme. */
export const handler = cdmHandler('createPreConstructionInformation', {
  path: [schemes, 'scheme_id'],
  write: createPack,
  answer: preConstructionInformation,
  created: true,
});

export const requestBody = packDocuments.create;
