import { createHandler } from '#shared/http/crud-handlers';
import { importTemplateCrud } from '#shared/resources/places/locations';

/** POST /v3/orgs/{org_id}/governance/import-templates: a saved column mapping; 201 */
export const handler = createHandler('createImportTemplate', importTemplateCrud);
