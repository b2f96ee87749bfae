/**
 * One real record of every kind an organisation can hold, for tests that must name a real record in
 * every path parameter of every route (test/security/tenant-isolation.test.ts). Records are made through
 * the API as the organisation's administrator, as a client would make them; only what no route creates
 * is written through the service's own write functions: streets and feature configurations (seeded
 * data), and street-works permits, activities and protections (they arrive through SNS, and
 * `processNotification` is what the receiver calls once a message is verified).
 *
 * Every write route has its request body here (`requestBodies`, by route id), as a function of the
 * organisation's record ids: the builder sends each one, so each is known to be accepted, and a test
 * can send the same body, naming this organisation's records, from another organisation.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { streets } from '#functions/places/definitions';
import { processNotification } from '#functions/street-works/receive';
import { startSession } from '#shared/auth/sessions';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { type Route, routes } from '#shared/routes';
import { createFeatureConfiguration, grantRole } from '../../infra/local/records';
import { runCdmScenario, type ScenarioResult } from '../scenarios/cdm';
import type { ApiResponse, TestApi } from './api';
import { consume, deliverEvents, latestEvent, streamRecordOf } from './event-stream';
import type { Tenant } from './tenants';

/** Record ids by path-parameter name, and a few more by role (`person`, `outsider`, …). */
export type Ids = Readonly<Record<string, string>>;

const one = (type: string, id: string | undefined) => ({ data: { type, id } });
const many = (type: string, list: (string | undefined)[]) => ({ data: list.map((id) => ({ type, id })) });
const section = (text: string) => ({ text });
const BACKUP = 'SQLite format 3\u0000 field records';
const DOCUMENT = 'valve chamber VC-101';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** Write routes that take no request body. Every other write route must have one below. */
export const BODILESS = new Set([
  'createServiceAccountKey',
  'restoreSchemeContract',
  'restoreScheme',
  'restoreWorkOrder',
  'restoreOperation',
  'processLocationImport',
  'handOverConstructionPhasePlan',
  'completeDocumentVersion',
  'completeDeviceBackup',
  'rotateWebhookSubscriptionSecret',
  'resendInvitation',
  'revokeInvitation',
  'endSession',
  'redeliverWebhookDelivery',
  'approveQualificationAward',
  'rejectQualificationAward',
  'revokeQualificationAward',
  'signOutSiteAttendance',
]);

const today = () => new Date().toISOString().slice(0, 10);

/** A valid request body for every write route, naming the records in `ids`. */
/** An inline location import too large for its request (over 64 KiB): it answers 202 with a job. */
export const largeLocationImport = (prefix: string) => ({
  data: {
    type: 'location-imports',
    attributes: {
      csv: [
        'reference,name,address',
        ...Array.from({ length: 2000 }, (_, i) => `${prefix}-${i},Job site ${i},${i} Long Lane`),
      ].join('\n'),
    },
  },
});

export const requestBodies: Record<string, (ids: Ids) => object> = {
  createQualificationType: (i) => ({
    data: {
      type: 'qualification-types',
      attributes: { kind: 'induction', name: 'Depot induction', has_expiry: true, validity_period: 'P1Y' },
      relationships: { locations: many('locations', [i.location_id]) },
    },
  }),
  updateQualificationType: (i) => ({
    data: {
      type: 'qualification-types',
      id: i.qualification_type_id,
      attributes: { description: 'Gate, welfare, muster point.' },
    },
  }),
  createQualificationAward: (i) => ({
    data: {
      type: 'qualification-awards',
      attributes: { issued_at: today(), number: 'IND-1' },
      relationships: {
        person: one('users', i.person),
        qualification_type: one('qualification-types', i.qualification_type_id),
      },
    },
  }),
  updateQualificationAward: (i) => ({
    data: {
      type: 'qualification-awards',
      id: i.qualification_award_id,
      attributes: { notes: 'Inducted by the site manager.' },
    },
  }),
  createQualificationSpecification: (i) => ({
    data: {
      type: 'qualification-specifications',
      attributes: {
        name: 'Depot access',
        rule: { all_of: [{ qualification_type: i.qualification_type_id }] },
      },
    },
  }),
  updateQualificationSpecification: (i) => ({
    data: {
      type: 'qualification-specifications',
      id: i.qualification_specification_id,
      attributes: { name: 'Depot entry' },
    },
  }),
  createSiteSetting: (i) => ({
    data: {
      type: 'site-settings',
      attributes: { closing_time: '18:00', missing_qualification: 'refuse' },
      relationships: {
        location: one('locations', i.location_id),
        required_specification: one('qualification-specifications', i.qualification_specification_id),
      },
    },
  }),
  updateSiteSetting: (i) => ({
    data: { type: 'site-settings', id: i.site_setting_id, attributes: { closing_time: '19:00' } },
  }),
  createSiteAttendance: (i) => ({
    data: {
      type: 'site-attendances',
      attributes: { method_in: 'app', employer: 'Acme Civils' },
      relationships: { person: one('users', i.person), location: one('locations', i.location_id) },
    },
  }),
  updateSiteAttendance: (i) => ({
    data: {
      type: 'site-attendances',
      id: i.site_attendance_id,
      attributes: {
        signed_in_at: new Date(Date.now() - 3_600_000).toISOString(),
        correction_reason: 'Signed in at the gate hut while the kiosk was down.',
      },
    },
  }),
  createTeam: (i) => ({
    data: {
      type: 'teams',
      attributes: { name: 'Isolation crew', description: 'Made by a test.' },
      relationships: { members: many('users', [i.person]) },
    },
  }),
  createJobRole: (i) => ({
    data: { type: 'job-roles', attributes: { name: 'Site supervisor', code: `${i.reference}-SSUP` } },
  }),
  updateJobRole: (i) => ({
    data: { type: 'job-roles', id: i.job_role_id, attributes: { description: 'Runs a site day to day.' } },
  }),
  updateUser: (i) => ({
    data: {
      type: 'users',
      id: i.user_id,
      attributes: { profile: { work: { occupation: 'Isolation tester' } } },
      relationships: { job_role: { data: { type: 'job-roles', id: i.job_role_id } } },
    },
  }),
  createInvitation: (i) => ({
    data: {
      type: 'invitations',
      attributes: { email: `${i.reference}.invitee@isolation.example`.toLowerCase() },
      relationships: {
        roles: { data: [{ type: 'roles', id: i.role_id }] },
        role_groups: many('role-groups', [i.role_group_id]),
        teams: many('teams', [i.team_id]),
        job_role: { data: { type: 'job-roles', id: i.job_role_id } },
      },
    },
  }),
  updateSettings: (i) => ({
    data: { type: 'settings', id: i.settings_id, attributes: { week_start: 'sunday' } },
  }),
  createRole: () => ({
    data: { type: 'roles', attributes: { name: 'Reader', permissions: ['teams:view'] } },
  }),
  updateRole: (i) => ({ data: { type: 'roles', id: i.role_id, attributes: { name: 'Team reader' } } }),
  createRoleGroup: (i) => ({
    data: {
      type: 'role-groups',
      attributes: { name: 'Readers' },
      relationships: { roles: many('roles', [i.role_id, 'viewer']) },
    },
  }),
  updateRoleGroup: (i) => ({
    data: { type: 'role-groups', id: i.role_group_id, relationships: { roles: many('roles', [i.role_id]) } },
  }),
  createServiceAccount: () => ({
    data: { type: 'service-accounts', attributes: { name: 'Bridge', description: 'SCADA bridge' } },
  }),
  updateServiceAccount: (i) => ({
    data: { type: 'service-accounts', id: i.service_account_id, attributes: { description: 'Bridge' } },
  }),
  updateServiceAccountKey: (i) => ({
    data: { type: 'service-account-keys', id: i.key_id, attributes: { enabled: true } },
  }),
  createGrant: (i) => ({
    data: {
      type: 'grants',
      relationships: {
        role: one('roles', i.role_id),
        service_account: one('service-accounts', i.service_account_id),
      },
    },
  }),
  updateGrant: (i) => ({
    data: {
      type: 'grants',
      id: i.grant_id,
      relationships: { role_group: one('role-groups', i.role_group_id) },
    },
  }),
  createSsoProvider: (i) => ({
    data: {
      type: 'sso-providers',
      attributes: {
        name: `Entra ID ${i.reference}`,
        metadata: 'https://login.example/.well-known/openid-configuration',
        enforce: false,
      },
      relationships: { organisation: one('organisations', i.org_id), default_role: one('roles', i.role_id) },
    },
  }),

  createSchemeContract: (i) => ({
    data: { type: 'scheme-contracts', attributes: { name: 'North region', code: `${i.reference}-NR` } },
  }),
  updateSchemeContract: (i) => ({
    data: { type: 'scheme-contracts', id: i.scheme_contract_id, attributes: { name: 'Region' } },
  }),
  createScheme: (i) => ({
    data: {
      type: 'schemes',
      attributes: { name: 'Trunk main renewal' },
      relationships: {
        contracts: many('scheme-contracts', [i.scheme_contract_id]),
        site_managers: many('users', [i.person]),
      },
    },
  }),
  updateScheme: (i) => ({
    data: {
      type: 'schemes',
      id: i.scheme_id,
      attributes: { description: 'Reservoir outlet' },
      relationships: { site_managers: many('users', [i.person]) },
    },
  }),
  replaceScheme: (i) => ({
    data: { type: 'schemes', id: i.scheme_id, attributes: { name: 'Reservoir outlet works' } },
  }),
  createWorkOrder: (i) => ({
    data: {
      type: 'work-orders',
      attributes: { name: 'Section A' },
      relationships: { scheme: one('schemes', i.scheme_id) },
    },
  }),
  updateWorkOrder: (i) => ({
    data: { type: 'work-orders', id: i.work_order_id, attributes: { name: 'Section A1' } },
  }),
  createOperation: (i) => ({
    data: {
      type: 'operations',
      attributes: { name: 'Excavate', status: 'todo' },
      relationships: { work_order: one('work-orders', i.work_order_id) },
    },
  }),
  updateOperation: (i) => ({
    data: { type: 'operations', id: i.operation_id, attributes: { name: 'Excavate trench' } },
  }),

  createAppointment: (i) => ({
    data: {
      type: 'appointments',
      attributes: { role: 'designer' },
      relationships: { service_account: one('service-accounts', i.outsider) },
    },
  }),
  endAppointment: (i) => ({
    data: { type: 'appointments', id: i.appointment_id, attributes: { status: 'ended', end_reason: 'Done' } },
  }),
  createPreConstructionInformation: () => ({ data: { type: 'pre-construction-information' } }),
  updatePreConstructionInformation: (i) => ({
    data: {
      type: 'pre-construction-information',
      id: i.pre_construction_information_id,
      attributes: { sections: { project_description: section('Replace the outlet valve.') } },
    },
  }),
  createSiteHazard: () => ({
    data: { type: 'site-hazards', attributes: { title: 'Live cable', severity: 'high', location: 'Tower' } },
  }),
  updateSiteHazard: (i) => ({
    data: {
      type: 'site-hazards',
      id: i.site_hazard_id,
      attributes: { status: 'retired', retired_reason: 'Safe' },
    },
  }),
  createHazardProposal: () => ({
    data: { type: 'hazard-proposals', attributes: { title: 'Silt', severity: 'medium', reason: 'Survey' } },
  }),
  decideHazardProposal: (i) => ({
    data: {
      type: 'hazard-proposals',
      id: i.hazard_proposal_id,
      attributes: { status: 'rejected', decision_reason: 'Not a hazard' },
    },
  }),
  createConstructionPhasePlan: () => ({ data: { type: 'construction-phase-plans' } }),
  updateConstructionPhasePlan: (i) => ({
    data: {
      type: 'construction-phase-plans',
      id: i.construction_phase_plan_id,
      attributes: { sections: { welfare: section('Two cabins.') } },
    },
  }),
  createPlanRisk: (i) => ({
    data: {
      type: 'construction-phase-plan-risks',
      attributes: { title: 'Trench support', control_measures: ['Shoring'], residual_risk: 'low' },
      relationships: { hazard: one('site-hazards', i.site_hazard_id) },
    },
  }),
  updatePlanRisk: (i) => ({
    data: { type: 'construction-phase-plan-risks', id: i.risk_id, attributes: { title: 'Trench shoring' } },
  }),
  createProposedChange: (i) => ({
    data: {
      type: 'construction-phase-plan-proposed-changes',
      attributes: {
        reason: 'Control the silt',
        section: 'risks',
        operation: 'create',
        proposed: { risk: { title: 'Silt removal', control_measures: ['Curtain'], residual_risk: 'medium' } },
      },
      relationships: { hazard_proposal: one('hazard-proposals', i.hazard_proposal_id) },
    },
  }),
  decideProposedChange: (i) => ({
    data: {
      type: 'construction-phase-plan-proposed-changes',
      id: i.proposed_change_id,
      attributes: { status: 'rejected', decision_reason: 'Already decided' },
    },
  }),

  createEquipmentManufacturer: () => ({
    data: {
      type: 'equipment-manufacturers',
      attributes: { name: 'Hilti', website: 'https://hilti.example' },
    },
  }),
  updateEquipmentManufacturer: (i) => ({
    data: {
      type: 'equipment-manufacturers',
      id: i.equipment_manufacturer_id,
      attributes: { name: 'Hilti AG' },
    },
  }),
  createEquipmentCategory: () => ({ data: { type: 'equipment-categories', attributes: { name: 'Drills' } } }),
  updateEquipmentCategory: (i) => ({
    data: {
      type: 'equipment-categories',
      id: i.equipment_category_id,
      attributes: { name: 'Rotary drills' },
    },
  }),
  createEquipmentModel: (i) => ({
    data: {
      type: 'equipment-models',
      attributes: { name: 'TE 30' },
      relationships: {
        manufacturer: one('equipment-manufacturers', i.equipment_manufacturer_id),
        categories: many('equipment-categories', [i.equipment_category_id]),
      },
    },
  }),
  updateEquipmentModel: (i) => ({
    data: {
      type: 'equipment-models',
      id: i.equipment_model_id,
      relationships: { manufacturer: one('equipment-manufacturers', i.equipment_manufacturer_id) },
    },
  }),
  createVehicleSpecification: (i) => ({
    data: {
      type: 'vehicle-specifications',
      attributes: { name: 'Crew van', fuel_type: 'diesel', seats: 6 },
      relationships: { model: one('equipment-models', i.equipment_model_id) },
    },
  }),
  updateVehicleSpecification: (i) => ({
    data: {
      type: 'vehicle-specifications',
      id: i.vehicle_specification_id,
      relationships: { model: one('equipment-models', i.equipment_model_id) },
    },
  }),
  createVehicle: (i) => ({
    data: {
      type: 'vehicles',
      attributes: { registration: `${i.reference} KDE` },
      relationships: {
        specification: one('vehicle-specifications', i.vehicle_specification_id),
        user: one('users', i.person),
      },
    },
  }),
  updateVehicle: (i) => ({
    data: {
      type: 'vehicles',
      id: i.vehicle_id,
      attributes: { colour: 'white' },
      relationships: { user: one('users', i.person) },
    },
  }),
  createEquipment: (i) => ({
    data: {
      type: 'equipment-items',
      attributes: { serial: `${i.reference}-0001`, description: 'Rotary hammer' },
      relationships: {
        model: one('equipment-models', i.equipment_model_id),
        vehicle: one('vehicles', i.vehicle_id),
      },
    },
  }),
  updateEquipment: (i) => ({
    data: {
      type: 'equipment-items',
      id: i.equipment_id,
      attributes: { description: 'Rotary hammer drill' },
      relationships: { model: one('equipment-models', i.equipment_model_id) },
    },
  }),
  createVehicleInventoryCheck: (i) => ({
    data: {
      type: 'vehicle-inventory-checks',
      attributes: {
        inspected_at: '2026-11-20T07:30:00Z',
        items: [{ equipment_id: i.equipment_id, present: true, working: true }],
      },
      relationships: { vehicle: one('vehicles', i.vehicle_id) },
    },
  }),
  updateVehicleInventoryCheck: (i) => ({
    data: {
      type: 'vehicle-inventory-checks',
      id: i.vehicle_inventory_check_id,
      attributes: { items: [{ equipment_id: i.equipment_id, present: true, working: false }] },
    },
  }),
  allocateVehicleToLocation: (i) => ({
    data: { type: 'locations', id: i.location_id },
    meta: { starts_at: '2026-12-01T07:00:00Z' },
  }),
  allocateVehicleToScheme: (i) => one('schemes', i.scheme_id),
  allocateVehicleToWorkOrder: (i) => one('work-orders', i.work_order_id),
  allocateVehicleToPerson: (i) => one('users', i.person),

  createLocation: (i) => ({
    data: {
      type: 'locations',
      attributes: {
        name: 'Depot',
        reference: `${i.reference}-DEP`,
        location: { latitude: 54.32, longitude: -2.74 },
      },
    },
  }),
  updateLocation: (i) => ({
    data: { type: 'locations', id: i.location_id, attributes: { name: 'Main depot' } },
  }),
  createProperty: (i) => ({
    data: {
      type: 'properties',
      attributes: { name: '12 High Street', location: { latitude: 54.33, longitude: -2.75 } },
      relationships: { street: one('streets', i.street_id) },
    },
  }),
  updateProperty: (i) => ({
    data: {
      type: 'properties',
      id: i.property_id,
      attributes: { name: '12 High St' },
      relationships: { street: one('streets', i.street_id) },
    },
  }),
  createImportTemplate: () => ({
    data: {
      type: 'import-templates',
      attributes: {
        name: 'Council sites',
        target: 'locations',
        columns: { reference: 'Site Code', name: 'Site Name' },
      },
    },
  }),
  createLocationImport: (i) => ({
    data: {
      type: 'location-imports',
      attributes: { csv: `Site Code,Site Name\n${i.reference}-S1,North depot\n`, file_name: 'sites.csv' },
      relationships: { import_template: one('import-templates', i.import_template_id) },
    },
  }),

  createRateCode: (i) => ({
    data: {
      type: 'rate-codes',
      attributes: { code: `${i.reference}-LAB`, name: 'Gang day', category: 'labour' },
    },
  }),
  createRateCodeVersion: () => ({
    data: {
      type: 'rate-code-versions',
      attributes: {
        valid_from: '2026-01-01T00:00:00Z',
        cost: { amount: 80_000, currency: 'GBP' },
        charge: { amount: 100_000, currency: 'GBP' },
      },
    },
  }),
  createCostSheet: (i) => ({
    data: {
      type: 'cost-sheets',
      attributes: { name: 'Section A', status: 'quoted' },
      relationships: { work_order: one('work-orders', i.work_order_id) },
    },
  }),
  updateCostSheet: (i) => ({
    data: { type: 'cost-sheets', id: i.cost_sheet_id, attributes: { status: 'approved' } },
  }),
  createCostLine: (i) => ({
    data: {
      type: 'cost-lines',
      attributes: { kind: 'actual', quantity: 2, at: '2026-06-01T00:00:00Z' },
      relationships: { rate_code: one('rate-codes', i.rate_code_id) },
    },
  }),

  createCustomerAccount: (i) => ({
    data: {
      type: 'customer-accounts',
      attributes: { name: 'Flat 3', kind: 'domestic', reference: `${i.reference}-ACC` },
    },
  }),
  updateCustomerAccount: (i) => ({
    data: { type: 'customer-accounts', id: i.account_id, attributes: { name: 'Flat 3A' } },
  }),
  createCustomerContact: (i) => ({
    data: {
      type: 'customer-contacts',
      attributes: {
        association: 'occupier',
        first_name: 'Sam',
        last_name: 'Okafor',
        email: 'sam@example.com',
      },
      relationships: { accounts: many('customer-accounts', [i.account_id]) },
    },
  }),
  updateCustomerContact: (i) => ({
    data: {
      type: 'customer-contacts',
      id: i.contact_id,
      attributes: { salutation: 'Mr' },
      relationships: { accounts: many('customer-accounts', [i.account_id]) },
    },
  }),
  createCustomerInteraction: (i) => ({
    data: {
      type: 'customer-interactions',
      attributes: {
        channel: 'phone',
        direction: 'inbound',
        occurred_at: '2026-11-20T10:00:00Z',
        summary: 'Road',
      },
      relationships: {
        contact: one('customer-contacts', i.contact_id),
        account: one('customer-accounts', i.account_id),
      },
    },
  }),
  updateCustomerInteraction: (i) => ({
    data: {
      type: 'customer-interactions',
      id: i.interaction_id,
      attributes: { summary: 'Asked about the road' },
      relationships: { account: one('customer-accounts', i.account_id) },
    },
  }),
  createCustomerAppointment: (i) => ({
    data: {
      type: 'customer-appointments',
      attributes: { starts_at: '2026-12-01T09:00:00Z', purpose: 'Survey', status: 'scheduled' },
      relationships: {
        contact: one('customer-contacts', i.contact_id),
        account: one('customer-accounts', i.account_id),
        assignee: one('users', i.person),
      },
    },
  }),
  updateCustomerAppointment: (i) => ({
    data: {
      type: 'customer-appointments',
      id: i.customer_appointment_id,
      attributes: { purpose: 'Site survey' },
      relationships: { assignee: one('users', i.person) },
    },
  }),

  createAgent: () => ({
    data: { type: 'agents', attributes: { name: 'Adviser', persona: 'Reviews CDM risks.', enabled: true } },
  }),
  updateAgent: (i) => ({ data: { type: 'agents', id: i.agent_id, attributes: { name: 'CDM adviser' } } }),
  createBriefing: () => ({
    data: {
      type: 'briefings',
      attributes: {
        summary: 'One risk.',
        sections: [
          { title: 'Key risks', items: [{ text: 'Excavation', severity: 'red' }], reasoning: 'PCI' },
        ],
        reasoning: { approach: 'cross-check' },
        model_used: 'example-model',
        token_usage: { prompt_tokens: 10, completion_tokens: 5 },
      },
    },
  }),
  updateBriefing: (i) => ({
    data: { type: 'briefings', id: i.briefing_id, attributes: { status: 'archived' } },
  }),
  createComment: (i) => ({
    data: {
      type: 'comments',
      attributes: { body: 'Called twice.', subject: { type: 'customer-contacts', id: i.contact_id } },
    },
  }),

  createFolder: (i) => ({
    data: {
      type: 'folders',
      attributes: { name: 'Drawings' },
      relationships: { parent: one('folders', i.root_folder) },
    },
  }),
  updateFolder: (i) => ({
    data: {
      type: 'folders',
      id: i.folder_id,
      attributes: { name: 'Drawings (issued)' },
      relationships: { scheme: one('schemes', i.scheme_id) },
    },
  }),
  createDocument: () => ({
    data: {
      type: 'documents',
      attributes: {
        name: 'outlet.txt',
        content_type: 'text/plain',
        size: DOCUMENT.length,
        checksum: sha256(DOCUMENT),
      },
    },
  }),
  updateDocument: (i) => ({
    data: {
      type: 'documents',
      id: i.document_id,
      attributes: { name: 'outlet-valve.txt' },
      relationships: { folder: one('folders', i.folder_id) },
    },
  }),
  createDocumentVersion: () => ({
    data: {
      type: 'document-versions',
      attributes: { content_type: 'text/plain', size: DOCUMENT.length, checksum: sha256(DOCUMENT) },
    },
  }),

  createDeviceBackupRequest: (i) => ({
    data: {
      type: 'device-backup-requests',
      attributes: { device: 'tablet-07' },
      relationships: { user: one('users', i.person) },
    },
  }),
  createDeviceBackup: (i) => ({
    data: {
      type: 'device-backups',
      attributes: { device: 'tablet-07', size: Buffer.byteLength(BACKUP), checksum: sha256(BACKUP) },
      relationships: {
        request: one('device-backup-requests', i.device_backup_request_id),
        user: one('users', i.person),
      },
    },
  }),
  createWebhookSubscription: () => ({
    data: {
      type: 'webhook-subscriptions',
      attributes: { url: 'https://hooks.example.com/in', event_types: ['equipment-manufacturer.created'] },
    },
  }),
  updateWebhookSubscription: (i) => ({
    data: {
      type: 'webhook-subscriptions',
      id: i.webhook_subscription_id,
      attributes: { description: 'ERP bridge' },
    },
  }),
  createExport: () => ({
    data: { type: 'exports', attributes: { subject_type: 'customer-contacts', format: 'json' } },
  }),
};

export interface EveryRecord {
  /** Record ids by path-parameter name (and `person`, `outsider`, … for bodies). */
  ids: Ids;
  /** The record a route's parameter names: `appointment_id` is a CDM or a customer appointment by route. */
  idFor(route: Route, param: string): string;
  /** A user of the organisation holding its admin role, signed in: the `X-Session-Token` value. */
  session: string;
  /** The CDM walk-through's duty holders' access tokens (a plan's risks are the Principal Contractor's). */
  dutyHolders: ScenarioResult['tokens'];
}

/** The key in `Ids` of the record a route's parameter names (customer and CDM appointments share a name). */
export const recordKey = (route: Route, param: string): string =>
  param === 'appointment_id' && route.path.includes('/customers/appointments/')
    ? 'customer_appointment_id'
    : param;

export const recordFor = (ids: Ids, route: Route, param: string): string => {
  const id = ids[recordKey(route, param)];
  if (!id) {
    throw new Error(
      `No record for {${param}} of ${route.method} ${route.path}: add one to test/support/every-record.ts`,
    );
  }
  return id;
};

const routeById = new Map<string, Route>(routes.map((r) => [r.id, r]));

/**
 * A street-works event as the receiver processes it once its SNS message is verified: it creates or
 * moves the permit (or activity) `reference` names, and answers the protection it recorded.
 */
export const deliverStreetWorksEvent = async (
  org: string,
  eventType: string,
  objectType: 'PERMIT' | 'ACTIVITY',
  reference: string,
) => {
  const result = await processNotification({
    Type: 'Notification',
    MessageId: randomUUID(),
    TopicArn: 'arn:aws:sns:eu-west-2:123456789012:street-works-permits',
    Message: JSON.stringify({
      event_reference: randomUUID(),
      event_type: eventType,
      object_type: objectType,
      object_reference: reference,
      event_time: '2026-11-22T09:00:00Z',
      object_data: { usrn: '20100123' },
    }),
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    Signature: '',
    SigningCertURL: '',
  });
  if (!('protection' in result) || result.protection.org_id !== org) {
    throw new Error(`Street-works reference ${reference} does not route to ${org}`);
  }
  return result.protection;
};

/**
 * Makes one record of every kind in the tenant's organisation (two people needed: the second becomes the
 * signed-in admin user). `reference` prefixes the values unique per organisation, and the street-works
 * references, so the configured routing sends them to this organisation.
 */
export const buildEveryRecord = async (
  api: TestApi,
  tenant: Tenant,
  { token, reference }: { token: string; reference: string },
): Promise<EveryRecord> => {
  const org = tenant.org.id;
  const [person, signedIn] = tenant.people.map((p) => p.id);
  if (!person || !signedIn) throw new Error('buildEveryRecord needs a tenant with two people');
  const ids: Record<string, string> = {
    org_id: org,
    user_id: person,
    person,
    colleague: signedIn,
    reference,
  };

  /** Calls a route with the ids so far in its path and its body from `requestBodies`; expects `status`. */
  const send = async (
    routeId: string,
    status: number,
    params: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const route = routeById.get(routeId);
    if (!route) throw new Error(`No route ${routeId}`);
    const path = route.path.replace(
      /\{(\w+)\}/g,
      (_, name: string) => params[name] ?? recordFor(ids, route, name),
    );
    const body = requestBodies[routeId]?.(ids);
    const res = await api.request(route.method, path, { token, ...(body && { body }) });
    expect(res.status, `${route.method} ${path}: ${res.text}`).toBe(status);
    return res;
  };
  const create = async (routeId: string, params?: Record<string, string>) =>
    (await send(routeId, 201, params)).body.data.id as string;

  // People and identity.
  await grantRole(org, 'admin', 'user', signedIn);
  const session = (await startSession(signedIn)).token;
  ids.settings_id = (await send('getSettings', 200)).body.data.id;
  ids.team_id = await create('createTeam');
  ids.job_role_id = await create('createJobRole');
  ids.feature_configuration_id = (
    await createFeatureConfiguration(org, { name: 'CPP', domain: 'cdm', component: 'cpp', enabled: true })
  ).id;
  ids.role_id = await create('createRole');
  ids.role_group_id = await create('createRoleGroup');
  ids.service_account_id = await create('createServiceAccount');
  ids.key_id = await create('createServiceAccountKey');
  ids.grant_id = await create('createGrant');
  ids.sso_provider_id = await create('createSsoProvider');
  ids.invitation_id = await create('createInvitation');
  await send('resendInvitation', 200);
  for (const id of [
    'updateJobRole',
    'updateUser',
    'updateSettings',
    'updateServiceAccount',
    'updateServiceAccountKey',
    'updateGrant',
    'updateRole',
    'updateRoleGroup',
  ])
    await send(id, 200);

  // The work hierarchy and CDM: the walk-through appoints the duty holders and fills a pack and a plan.
  const cdm = await runCdmScenario(api, org, token);
  Object.assign(ids, {
    scheme_id: cdm.schemeId,
    pre_construction_information_id: cdm.packId,
    construction_phase_plan_id: cdm.planId,
    site_hazard_id: cdm.hazards.excavation,
    risk_id: cdm.risks[0],
    proposed_change_id: cdm.acceptedChange,
    outsider: cdm.principals.outsider,
  });
  const [accepted, scheme, appointments, planVersions] = await Promise.all([
    api.get(`/v3/construction-phase-plan-proposed-changes/${cdm.acceptedChange}`, token),
    api.get(`/v3/orgs/${org}/projects/schemes/${cdm.schemeId}`, token),
    api.get(`/v3/orgs/${org}/projects/schemes/${cdm.schemeId}/appointments`, token),
    api.get(`/v3/construction-phase-plans/${cdm.planId}/versions`, token),
  ]);
  ids.plan_version_id = planVersions.body.data[0].id;
  ids.hazard_proposal_id = accepted.body.data.relationships.hazard_proposal.data.id;
  ids.scheme_contract_id = scheme.body.data.relationships.contracts.data[0].id;
  ids.appointment_id = appointments.body.data[0].id;
  await create('createSchemeContract');
  await create('createScheme');
  ids.work_order_id = await create('createWorkOrder');
  ids.operation_id = await create('createOperation');
  for (const id of [
    'updateSchemeContract',
    'updateScheme',
    'replaceScheme',
    'updateWorkOrder',
    'updateOperation',
  ])
    await send(id, 200);

  // Assets.
  ids.equipment_manufacturer_id = await create('createEquipmentManufacturer');
  ids.equipment_category_id = await create('createEquipmentCategory');
  ids.equipment_model_id = await create('createEquipmentModel');
  ids.vehicle_specification_id = await create('createVehicleSpecification');
  ids.vehicle_id = await create('createVehicle');
  ids.equipment_id = await create('createEquipment');
  ids.vehicle_inventory_check_id = await create('createVehicleInventoryCheck');
  for (const id of [
    'updateEquipmentManufacturer',
    'updateEquipmentCategory',
    'updateEquipmentModel',
    'updateVehicleSpecification',
    'updateEquipment',
    'updateVehicle',
    'updateVehicleInventoryCheck',
  ])
    await send(id, 200);

  // Places; streets are seeded data (no route creates one).
  ids.location_id = await create('createLocation');
  const street = newRecord(streets, org, {
    attributes: { name: 'High Street', usrn: '20100123', town: 'Kendal' },
  });
  await commit(scopeOf([org]), [{ create: street }]);
  ids.street_id = street.id;
  ids.property_id = await create('createProperty');
  ids.import_template_id = await create('createImportTemplate');
  ids.location_import_id = await create('createLocationImport');
  for (const id of ['updateLocation', 'updateProperty']) await send(id, 200);

  // Qualifications and site attendances: an induction to the location, awarded to the person and
  // approved, a specification of it the location requires, and the person's attendance there.
  ids.qualification_type_id = await create('createQualificationType');
  ids.qualification_award_id = await create('createQualificationAward');
  await send('approveQualificationAward', 200);
  ids.qualification_specification_id = await create('createQualificationSpecification');
  ids.site_setting_id = await create('createSiteSetting');
  ids.site_attendance_id = await create('createSiteAttendance');
  await send('signOutSiteAttendance', 200);
  for (const id of [
    'updateQualificationType',
    'updateQualificationAward',
    'updateQualificationSpecification',
    'updateSiteSetting',
    'updateSiteAttendance',
  ])
    await send(id, 200);
  // Allocations move the vehicle between the organisation's records; every write so far becomes an
  // audit entry once the stream hands its event to the audit consumer.
  for (const id of [
    'allocateVehicleToLocation',
    'allocateVehicleToScheme',
    'allocateVehicleToWorkOrder',
    'allocateVehicleToPerson',
  ])
    await send(id, 200);
  await deliverEvents(org);
  ids.audit_event_id = (await api.get(`/v3/orgs/${org}/audit-events`, token)).body.data[0].id;

  // Costs.
  ids.rate_code_id = await create('createRateCode');
  ids.rate_code_version_id = await create('createRateCodeVersion');
  ids.cost_sheet_id = await create('createCostSheet');
  ids.cost_line_id = await create('createCostLine');
  await send('updateCostSheet', 200);

  // Street works arrive through SNS: a permit and an activity, each with its protection.
  for (const [eventType, objectType] of [
    ['PERMIT_GRANTED', 'PERMIT'],
    ['ACTIVITY_CREATED', 'ACTIVITY'],
  ] as const) {
    const protection = await deliverStreetWorksEvent(
      org,
      eventType,
      objectType,
      `${reference}-${objectType[0]}-1`,
    );
    ids.protection_id = protection.id;
    if (typeof protection.rels.permit === 'string') ids.permit_id = protection.rels.permit;
    if (typeof protection.rels.street_work === 'string') ids.street_work_id = protection.rels.street_work;
  }

  // Customers.
  ids.account_id = await create('createCustomerAccount');
  ids.contact_id = await create('createCustomerContact');
  ids.interaction_id = await create('createCustomerInteraction');
  ids.customer_appointment_id = await create('createCustomerAppointment');
  for (const id of ['updateCustomerAccount', 'updateCustomerContact', 'updateCustomerInteraction'])
    await send(id, 200);
  await send('updateCustomerAppointment', 200, { appointment_id: ids.customer_appointment_id });

  // Agents, briefings and comments.
  ids.agent_id = await create('createAgent');
  ids.briefing_id = await create('createBriefing');
  await send('updateAgent', 200);
  await send('updateBriefing', 200);
  ids.comment_id = await create('createComment');

  // Folders and documents, the document's first version uploaded and completed.
  ids.root_folder = (
    await api.request('POST', `/v3/orgs/${org}/folders`, {
      token,
      body: { data: { type: 'folders', attributes: { name: 'Reservoir' } } },
    })
  ).body.data.id;
  ids.folder_id = await create('createFolder');
  const document = await send('createDocument', 201);
  ids.document_id = document.body.data.id;
  const put = document.body.data.meta.upload;
  ids.version_id = put.version;
  expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: DOCUMENT })).status).toBe(200);
  await send('completeDocumentVersion', 200);
  await create('createDocumentVersion');
  for (const id of ['updateFolder', 'updateDocument']) await send(id, 200);

  // Device backups: requested for a person, then uploaded and completed by the device (the admin here).
  ids.device_backup_request_id = await create('createDeviceBackupRequest');
  const backup = await send('createDeviceBackup', 201);
  ids.device_backup_id = backup.body.data.id;
  const upload = backup.body.data.meta.upload;
  expect(
    (await fetch(upload.url, { method: upload.method, headers: upload.headers, body: BACKUP })).status,
  ).toBe(200);
  await send('completeDeviceBackup', 200);

  ids.export_id = await create('createExport');

  // Jobs: an inline import too large for its request answers 202 with its job (no worker runs here).
  const large = await api.request('POST', `/v3/orgs/${org}/governance/location-imports`, {
    token,
    body: largeLocationImport('J'),
  });
  expect(large.status, large.text).toBe(202);
  ids.job_id = large.body.data.id;

  // Webhooks: a subscription, and a delivery of one of its events to a receiver on loopback (deliveries
  // are made by the event consumer, not by a route), delivered so that it may be redelivered.
  ids.webhook_subscription_id = await create('createWebhookSubscription');
  const receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const port = (receiver.address() as AddressInfo).port;
  const pointed = await api.request('PATCH', `/v3/webhook-subscriptions/${ids.webhook_subscription_id}`, {
    token,
    body: {
      data: {
        type: 'webhook-subscriptions',
        id: ids.webhook_subscription_id,
        attributes: { url: `http://127.0.0.1:${port}/in` },
      },
    },
  });
  expect(pointed.status, pointed.text).toBe(200);
  await consume(
    streamRecordOf(await latestEvent(org, 'equipment-manufacturer.created', ids.equipment_manufacturer_id)),
  );
  await new Promise<void>((done) => receiver.close(() => done()));
  const deliveries = await api.get(
    `/v3/webhook-subscriptions/${ids.webhook_subscription_id}/deliveries`,
    token,
  );
  ids.webhook_delivery_id = deliveries.body.data[0].id;
  await send('updateWebhookSubscription', 200);
  await send('rotateWebhookSubscriptionSecret', 200);
  await send('redeliverWebhookDelivery', 202);

  return {
    ids,
    session,
    dutyHolders: cdm.tokens,
    idFor: (route, param) => recordFor(ids, route, param),
  };
};
