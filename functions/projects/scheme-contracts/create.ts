import { createHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('scheme-contracts');

/** POST /v3/orgs/{org_id}/projects/scheme-contracts: 201 */
export const handler = createHandler('createSchemeContract', crud);

export const requestBody = crud.documents.create;
