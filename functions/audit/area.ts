import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { auditEvents } from './audit-events';

export const area = defineArea('audit', {
  tag: 'Audit Events',
  permissions: {
    'audit-events:view': 'Read the organisation’s audit events and records’ histories.',
  },
  consumers: [
    eventConsumer('audit', { module: 'functions/audit/consumer.ts', handle: 'recordAuditEntry' }, 'record'),
  ],
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
