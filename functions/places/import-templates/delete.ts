import { deleteHandler } from '#shared/http/crud-handlers';
import { importTemplateCrud } from '#shared/resources/places/locations';

/** DELETE /v3/orgs/{org_id}/governance/import-templates/{import_template_id}: 204 */
export const handler = deleteHandler('deleteImportTemplate', importTemplateCrud, 'import_template_id');
