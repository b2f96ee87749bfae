import { cdmHandler } from '../cdm-handler';
import { preConstructionInformation } from '../definitions';
import { packDocuments, updatePack } from '../pre-construction';

/** PATCH /v3/pre-construction-information/{id}: writes sections, each only by its owning duty-holder role. */
export const handler = cdmHandler('updatePreConstructionInformation', {
  path: [preConstructionInformation, 'pre_construction_information_id'],
  write: updatePack,
});

export const requestBody = packDocuments.update;
