import { defineArea } from '../area';
import { auditEvents } from './audit-events';

export const area = defineArea('audit', {
  resources: [auditEvents],
  routes: [
    {
      id: 'listVehicleAuditEvents',
      method: 'GET',
      path: '/v3/vehicles/{vehicle_id}/audit-events',
      handler: 'functions/audit/list-vehicle-audit-events.ts',
      permission: 'audit-events:view',
    },
  ],
});
