/**
 * Issue 43, "which events notify whom": `recipientsOf(rule, event)`, the users one rule names for one
 * event, against real grants in DynamoDB Local: by a relationship of the subject as the event carries it,
 * by permission (every user holding it in the event's organisation, directly or through a team; a revoked
 * grant no longer counts; a service account never does), without the actor unless the rule tells them,
 * de-duplicated, and only the organisation's active users.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteGrant } from '#functions/iam/grant-writes';
import { recipientsOf } from '#functions/notifications/recipients';
import type { StoredEvent } from '#shared/data/events';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { createTeam, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
/** Holds the approving permission directly, through a team, not at all, once (revoked), and deactivated. */
let direct: string;
let throughTeam: string;
let without: string;
let revoked: string;
let deactivated: string;
let outsider: string;

const id = (t: Tenant, i: number) => t.people[i]?.id ?? '';
/** The users a rule names, by id (the address each carries is asserted apart). */
const idsOf = async (...args: Parameters<typeof recipientsOf>) =>
  (await recipientsOf(...args)).map(({ id }) => id);

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Recipients Org', 5), newTenant('Recipients Other', 1)]);
  direct = id(tenant, 0);
  throughTeam = id(tenant, 1);
  without = id(tenant, 2);
  revoked = id(tenant, 3);
  deactivated = id(tenant, 4);
  outsider = id(other, 0);
  const admin = await api.token(tenant.admin);
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
    token: admin,
    body: {
      data: { type: 'roles', attributes: { name: 'Approvers', permissions: ['qualifications:approve'] } },
    },
  });
  expect(role.status, role.text).toBe(201);
  const approvers = role.body.data.id as string;
  const team = await createTeam(tenant.org.id, {
    name: 'Approving team',
    description: '',
    memberIds: [throughTeam],
  });
  await Promise.all([
    grantRole(tenant.org.id, approvers, 'user', direct),
    grantRole(tenant.org.id, approvers, 'team', team.id),
    grantRole(tenant.org.id, 'viewer', 'user', without),
    grantRole(tenant.org.id, approvers, 'user', deactivated),
    // The other organisation's user holds it there: not a member here.
    grantRole(other.org.id, 'admin', 'user', outsider),
  ]);
  const lapsed = (await grantRole(tenant.org.id, approvers, 'user', revoked)) as StoredResource;
  await deleteGrant(scopeOf([tenant.org.id]), lapsed);
  const res = await api.request('PATCH', `/v3/users/${deactivated}`, {
    token: admin,
    body: { data: { type: 'users', id: deactivated, attributes: { status: 'deactivated' } } },
  });
  expect(res.status, res.text).toBe(200);
});
afterAll(() => api.close());

/** An event about an award of `person`, as the stream carries it. */
const awardEvent = (person: string, actor = { kind: 'system', id: 'system' }) =>
  ({
    org_id: tenant.org.id,
    actor,
    data: {
      type: 'qualification-awards',
      id: 'award',
      attributes: {},
      relationships: { person: { data: { type: 'users', id: person } } },
    },
  }) as unknown as Pick<StoredEvent, 'org_id' | 'actor' | 'data'>;

describe('recipientsOf(rule, event)', () => {
  it('by permission: holders directly and through a team; not a revoked grant, a deactivated user, a service account or another organisation’s user', async () => {
    const found = await idsOf(
      { recipients: [{ permission: 'qualifications:approve' }] },
      awardEvent(without),
    );
    expect(found.sort()).toEqual([direct, throughTeam].sort());
  });

  it('by relationship: the user the subject names, as the event carries it', async () => {
    expect(await idsOf({ recipients: [{ relationship: 'person' }] }, awardEvent(without))).toEqual([without]);
  });

  it('both: each user once, even when named twice', async () => {
    const found = await idsOf(
      { recipients: [{ relationship: 'person' }, { permission: 'qualifications:approve' }] },
      awardEvent(direct),
    );
    expect(found.sort()).toEqual([direct, throughTeam].sort());
  });

  it('the actor is not told of their own act, unless the rule says so', async () => {
    const rule = { recipients: [{ permission: 'qualifications:approve' }] } as const;
    const byDirect = awardEvent(without, { kind: 'user', id: direct });
    expect(await idsOf(rule, byDirect)).toEqual([throughTeam]);
    expect((await idsOf({ ...rule, tell_actor: true }, byDirect)).sort()).toEqual(
      [direct, throughTeam].sort(),
    );
  });

  it('each recipient carries the address of the user record it was found by, so mailing them reads no record again', async () => {
    const found = await recipientsOf({ recipients: [{ relationship: 'person' }] }, awardEvent(without));
    const person = tenant.people.find((user) => user.id === without);
    expect(found).toEqual([{ id: without, email: person?.attributes.email }]);
    expect(person?.attributes.email).toMatch(/@/);
  });

  it('a user the subject names who is not the organisation’s is nobody', async () => {
    expect(await idsOf({ recipients: [{ relationship: 'person' }] }, awardEvent(outsider))).toEqual([]);
  });
});
