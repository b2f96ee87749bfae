import { updateHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('scheme-contracts');

/** PATCH /v3/orgs/{org_id}/projects/scheme-contracts/{scheme_contract_id}: partial update */
export const handler = updateHandler('updateSchemeContract', crud, 'scheme_contract_id');

export const requestBody = crud.documents.update;
