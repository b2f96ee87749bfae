import { listHandler } from '#shared/http/crud-handlers';
import { auditEvents } from '#shared/resources/audit/audit-events';

/** GET /v3/orgs/{org_id}/audit-events: newest first; filters action, subject_type, subject_id, occurred_at.since/until. */
export const handler = listHandler('listAuditEvents', auditEvents);
