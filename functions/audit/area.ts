import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { migration } from '#shared/engine/migration-declarations';
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
  migrations: [
    // Entries the code before month buckets wrote in the former partition after the buckets began.
    migration(5, 'audit-month-buckets', {
      module: 'functions/audit/migrations/audit-month-buckets.ts',
      step: 'auditMonthBuckets',
    }),
    // The audit consumer's state items, kept per subject before events carried what they changed.
    migration(28, 'audit-states', {
      module: 'functions/audit/migrations/audit-states.ts',
      step: 'auditStates',
    }),
  ],
});
