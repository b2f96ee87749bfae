/**
 * One real record of every kind an organisation can hold, for tests that must name a real record in
 * every path parameter of every route (test/security/tenant-isolation.test.ts). Records are made through
 * the API as the organisation's administrator, as a client would make them; only what no route creates
 * is written through the service's own write functions: streets and feature configurations (seeded
 * data), and street-works permits, activities and protections (they arrive through SNS, and
 * `processNotification` is what the receiver calls once a message is verified).
 *
 * Every write route has its request body in its area's `examples.ts` (assembled here as `requestBodies`,
 * by route id), as a function of the organisation's record ids: the builder sends each one, so each is
 * known to be accepted, and a test can send the same body, naming this organisation's records, from
 * another organisation.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { EXAMPLE_BACKUP } from '#functions/device-backups/examples';
import { EXAMPLE_DOCUMENT } from '#functions/documents/examples';
import { EXAMPLE_IMAGE } from '#functions/images/examples';
import { processImage } from '#functions/images/worker';
import { envelopeId, writeEnvelopes } from '#functions/notifications/envelopes';
import { streets } from '#functions/places/definitions';
import { processNotification } from '#functions/street-works/receive';
import { startSession } from '#shared/auth/sessions';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import type { Ids } from '#shared/engine/examples';
import { newRecord } from '#shared/engine/record-writes';
import { type Route, routes } from '#shared/routes';
import { createFeatureConfiguration, grantRole } from '../../infra/local/records';
import { loadRequestExamples } from '../../infra/request-examples';
import { runCdmScenario, type ScenarioResult } from '../scenarios/cdm';
import type { ApiResponse, TestApi } from './api';
import { consume, deliverEvents, latestEvent, streamRecordOf } from './event-stream';
import type { Tenant } from './tenants';

export type { Ids };

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

const examples = await loadRequestExamples();

/** Write routes that take no request body (their area's examples say `null`). */
export const BODILESS: ReadonlySet<string> = new Set(
  [...examples].filter(([, example]) => example === null).map(([id]) => id),
);

/** A valid request body for every other write route, naming the records in `ids`: the areas' examples. */
export const requestBodies: Readonly<Record<string, (ids: Ids) => object>> = Object.fromEntries(
  [...examples].flatMap(([id, example]) =>
    example ? [[id, (ids: Ids) => example(ids, new Date())] as const] : [],
  ),
);

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
  ids.notification_rules_id = (await send('getNotificationRules', 200)).body.data.id;
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
  // A user's own notification preferences (a service account has none): as the signed-in user.
  const preferences = await api.request('PATCH', `/v3/notification-preferences/${org}`, {
    headers: { 'x-session-token': session },
    body: requestBodies.updateNotificationPreferences?.(ids),
  });
  if (preferences.status !== 200) throw new Error(`updateNotificationPreferences: ${preferences.text}`);
  for (const id of [
    'updateJobRole',
    'updateFeatureConfiguration',
    'updateUser',
    'updateSettings',
    'updateNotificationRules',
    'updateServiceAccount',
    'updateServiceAccountKey',
    'updateGrant',
    'updateRole',
    'updateRoleGroup',
    'updateTeam',
    // The team's members: the colleague joins, both are named with the person leading, then both leave
    // (a team goes only once it has none).
    'addTeamMembers',
    'replaceTeamMembers',
    'removeTeamMembers',
    'updateSsoProvider',
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
  // Its moves; whoever made it never approves it (four eyes), so the signed-in user does.
  const moveSheet = async (verb: string, credentials: { token: string } | { headers: object }) => {
    const path = `/v3/orgs/${org}/costs/cost-sheets/${ids.cost_sheet_id}/${verb}`;
    const res = await api.request('POST', path, credentials as { token: string });
    expect(res.status, `POST ${path}: ${res.text}`).toBe(200);
  };
  await moveSheet('approve', { headers: { 'x-session-token': session } });
  for (const verb of ['complete', 'reopen', 'requote']) await moveSheet(verb, { token });

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
  ids.notice_id = await create('createNotice');

  // Actions: a type, an action of it (assigned to the person, about the location), started.
  ids.action_type_id = await create('createActionType');
  ids.action_id = await create('createAction');
  for (const id of ['updateActionType', 'updateAction', 'startAction']) await send(id, 200);

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
  expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: EXAMPLE_DOCUMENT })).status).toBe(
    200,
  );
  await send('completeDocumentVersion', 200);
  await create('createDocumentVersion');
  for (const id of ['updateFolder', 'updateDocument']) await send(id, 200);

  // Images: declared, uploaded, completed and processed by the image worker (as the consumer runs it), then
  // annotated (only a ready image is).
  const image = await send('createImage', 201);
  ids.image_id = image.body.data.id;
  const imageUpload = image.body.data.meta.upload;
  expect(
    (await fetch(imageUpload.url, { method: 'PUT', headers: imageUpload.headers, body: EXAMPLE_IMAGE }))
      .status,
  ).toBe(200);
  await send('completeImage', 200);
  // The variant a delivery route names: one of the three, not a record.
  ids.variant = 'thumb';
  await processImage({ org_id: org, image_id: image.body.data.id });
  for (const id of ['updateImage', 'replaceImageAnnotations']) await send(id, 200);
  // The annotated variants drawn (as the `image.annotated` consumer runs the worker), so they are served.
  await processImage({ org_id: org, image_id: image.body.data.id });

  // Device backups: requested for a person, then uploaded and completed by the device (the admin here).
  ids.device_backup_request_id = await create('createDeviceBackupRequest');
  const backup = await send('createDeviceBackup', 201);
  ids.device_backup_id = backup.body.data.id;
  const upload = backup.body.data.meta.upload;
  expect(
    (await fetch(upload.url, { method: upload.method, headers: upload.headers, body: EXAMPLE_BACKUP }))
      .status,
  ).toBe(200);
  await send('completeDeviceBackup', 200);

  ids.export_id = await create('createExport');

  // Notifications: an envelope in the signed-in user's inbox, as the event consumer writes them (no route does).
  const told = { id: randomUUID(), name: 'invitation.accepted' };
  await writeEnvelopes([
    {
      recipient: signedIn,
      org_id: org,
      event: told,
      subject: { type: 'invitations', id: randomUUID() },
      actor: null,
      category: 'people',
      severity: 'info',
      title: 'An invitation was accepted',
      body: 'Someone you invited has joined.',
      link: null,
      requires_ack: false,
      channels: { email: false },
    },
  ]);
  ids.notification_id = envelopeId(told.id, signedIn);
  // The inbox's writes, the signed-in user's own (a service account has no inbox).
  for (const [method, path, id] of [
    ['PATCH', `/v3/notifications/${ids.notification_id}`, 'updateNotification'],
    ['POST', '/v3/notifications/mark', 'markNotifications'],
  ] as const) {
    const res = await api.request(method, path, {
      headers: { 'x-session-token': session },
      body: requestBodies[id]?.(ids),
    });
    if (res.status !== 200) throw new Error(`${id}: ${res.text}`);
  }

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
