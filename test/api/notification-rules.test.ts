/**
 * Issue 43, "Rules": `GET/PATCH /v3/orgs/{org_id}/notification-rules`: every area's shipped rule merged
 * with the organisation's overrides, each saying whether it was overridden; a PATCH (`notification-rules:
 * manage`) overrides `enabled`, `recipients`, `severity`, `requires_ack` per rule id; an unknown rule id,
 * permission or relationship is 422 with its pointer and nothing is written; each change is an event and
 * an audit entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let viewer: string;
let outsider: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Rules Org', 0), newTenant('Rules Other', 0)]);
  [admin, viewer, outsider] = await Promise.all([
    api.token(tenant.admin),
    api.token(tenant.viewer),
    api.token(other.admin),
  ]);
});
afterAll(() => api.close());

const path = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/notification-rules`;
const read = async (token = admin) => {
  const res = await api.get(path(), token);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};
const change = async (overrides: object, token = admin) =>
  api.request('PATCH', path(), {
    token,
    body: { data: { type: 'notification-rules', id: (await read()).id, attributes: { overrides } } },
  });

describe('GET /v3/orgs/{org_id}/notification-rules (notification-rules:view)', () => {
  it('every shipped rule, as its area ships it, none overridden, before the organisation changes any', async () => {
    const { attributes } = await read(viewer);
    expect(attributes.overrides).toEqual({});
    expect(attributes.rules['invitation-accepted']).toEqual({
      area: 'people',
      event: 'invitation.accepted',
      category: 'people',
      severity: 'info',
      recipients: [{ relationship: 'invited_by' }],
      requires_ack: false,
      tell_actor: false,
      enabled: true,
      overridden: false,
    });
    expect(attributes.rules['qualification-award-expiring'].recipients).toEqual([
      { relationship: 'person' },
      { permission: 'qualifications:approve' },
    ]);
    expect(attributes.rules['site-attendance-let-in-with-warnings']).toMatchObject({
      category: 'safety',
      recipients: [{ permission: 'site-attendances:override' }],
    });
  });

  it('another organisation’s rules are 404, read or changed', async () => {
    expect((await api.get(path(), outsider)).status).toBe(404);
    const res = await api.request('PATCH', path(), {
      token: outsider,
      body: { data: { type: 'notification-rules', id: (await read()).id, attributes: { overrides: {} } } },
    });
    expect(res.status).toBe(404);
  });
});

describe('PATCH /v3/orgs/{org_id}/notification-rules (notification-rules:manage)', () => {
  it('needs notification-rules:manage: a viewer is 403 and nothing changes', async () => {
    const res = await change({ 'invitation-accepted': { enabled: false } }, viewer);
    expect(res.status, res.text).toBe(403);
    expect((await read()).attributes.rules['invitation-accepted'].enabled).toBe(true);
  });

  it('overrides a rule per id and shows it overridden; the others keep their defaults', async () => {
    const res = await change({
      'invitation-accepted': { enabled: false, severity: 'warning' },
      'qualification-award-expiring': {
        recipients: [{ relationship: 'person' }, { permission: 'users:manage' }],
        requires_ack: true,
      },
    });
    expect(res.status, res.text).toBe(200);
    const { rules } = res.body.data.attributes;
    expect(rules['invitation-accepted']).toMatchObject({
      enabled: false,
      severity: 'warning',
      overridden: true,
    });
    expect(rules['qualification-award-expiring']).toMatchObject({
      recipients: [{ relationship: 'person' }, { permission: 'users:manage' }],
      requires_ack: true,
      overridden: true,
    });
    expect(rules['qualification-award-expired']).toMatchObject({ overridden: false, requires_ack: false });
    expect((await read()).attributes.rules).toEqual(rules);
  });

  it('unknown rule ids, permissions and relationships are 422 with their pointers; nothing is written', async () => {
    const before = (await read()).attributes;
    const res = await change({
      'invitation-exploded': { enabled: false },
      'invitation-accepted': { recipients: [{ permission: 'invitations:bless' }, { relationship: 'teams' }] },
      'qualification-award-expired': { enabled: false },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/overrides/invitation-exploded',
      '/data/attributes/overrides/invitation-accepted/recipients/0/permission',
      '/data/attributes/overrides/invitation-accepted/recipients/1/relationship',
    ]);
    expect((await read()).attributes).toEqual(before);
  });

  it('a malformed override (an unknown member or severity) is 400 with its pointer', async () => {
    const res = await change({ 'invitation-accepted': { severity: 'apocalyptic' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/overrides/invitation-accepted/severity');
  });

  it('null puts a rule back to its default', async () => {
    const res = await change({ 'invitation-accepted': null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.rules['invitation-accepted']).toMatchObject({
      enabled: true,
      severity: 'info',
      overridden: false,
    });
  });

  it('a change is a notification-rules.updated event and an audit entry with the overrides before and after', async () => {
    const { id } = await read();
    expect((await change({ 'qualification-award-expired': { severity: 'warning' } })).status).toBe(200);
    const event = await latestEvent(tenant.org.id, 'notification-rules.updated', id);
    expect(event.data).toMatchObject({
      type: 'notification-rules',
      attributes: { overrides: { 'qualification-award-expired': { severity: 'warning' } } },
    });
    await deliverEvents(tenant.org.id);
    const audit = await api.get(`/v3/orgs/${tenant.org.id}/audit-events?filter[subject_id]=${id}`, admin);
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).toContain(
      'notification-rules.updated',
    );
  });
});
