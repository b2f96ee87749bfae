import { getHandler } from '#shared/http/crud-handlers';
import { importTemplates } from '#shared/resources/places/definitions';

/** GET /v3/orgs/{org_id}/governance/import-templates/{import_template_id} */
export const handler = getHandler('getImportTemplate', importTemplates, 'import_template_id');
