import { listHandler } from '#shared/http/crud-handlers';
import { importTemplates } from '#shared/resources/places/definitions';

/** GET /v3/orgs/{org_id}/governance/import-templates */
export const handler = listHandler('listImportTemplates', importTemplates);
