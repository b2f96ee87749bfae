import { getHandler } from '#shared/http/crud-handlers';
import { auditEvents } from '#shared/resources/audit/audit-events';

/** GET /v3/orgs/{org_id}/audit-events/{audit_event_id} */
export const handler = getHandler('getAuditEvent', auditEvents, 'audit_event_id');
