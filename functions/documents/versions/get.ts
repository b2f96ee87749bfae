import { getHandler } from '#shared/http/crud-handlers';
import { documentVersions } from '#shared/resources/documents/definitions';

/** GET /v3/document-versions/{version_id}: one version of a document (its bytes: …/content). */
export const handler = getHandler('getDocumentVersion', documentVersions, 'version_id');
