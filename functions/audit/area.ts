import { defineArea } from '#shared/engine/area';
import { auditEvents } from './audit-events';

export const area = defineArea('audit', {
  tag: 'Audit Events',
  resources: [auditEvents],
  routes: [
    {
      id: 'listVehicleAuditEvents',
      method: 'GET',
      path: '/v3/vehicles/{vehicle_id}/audit-events',
      handler: 'functions/audit/list-vehicle-audit-events.ts',
      answers: { status: 200, collection: 'audit-events' },
      permission: 'audit-events:view',
    },
  ],
});
