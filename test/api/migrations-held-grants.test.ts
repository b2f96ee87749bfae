/**
 * Migration 13 (issue 42, item 3): grants made before their holders kept them (a5dc760) are the grant
 * record alone, so they gave nothing (a principal's permissions are read from the items its partition
 * keeps) and a holder's `meta.grants` did not name them. Once `migrate` has run, each holder (the grantee,
 * or the team's members) holds it as one given today. A file of its own (the iam area's other migration is
 * `migrations-iam.test.ts`) so its table holds only these records: the runner walks the whole table once
 * per migration.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldGrants } from '#functions/iam/migrations/held-grants';
import { users } from '#functions/people/users';
import { startSession } from '#shared/auth/sessions';
import { documents, tableName } from '#shared/data/clients';
import { scanPage } from '#shared/data/migrations';
import { heldGrantKey } from '#shared/data/principals';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let role: string;
/** Grants as stored before a5dc760 (to a user, to a team of two), and one given today. */
const old = { toUser: '', toTeam: '' };
let today = '';

const org = () => `/v3/orgs/${tenant.org.id}`;
const person = (i: number) => tenant.people[i]?.id ?? '';
const created = async (path: string, data: object) => {
  const res = await api.request('POST', path, { token: admin, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const grant = (grantee: { user: string } | { team: string }) => {
  const [name, id] = Object.entries(grantee)[0] ?? [];
  return created(`${org()}/iam/grants`, {
    type: 'grants',
    relationships: {
      role: { data: { type: 'roles', id: role } },
      [name ?? '']: { data: { type: `${name}s`, id } },
    },
  });
};

/** What a grant's transaction writes beside the grant for a holder, taken back: the grant record alone. */
const asBeforeHolding = async (grantId: string, holders: string[]) => {
  for (const holder of holders) {
    await documents.send(new DeleteCommand({ TableName: tableName, Key: heldGrantKey(holder, grantId) }));
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: users.keyOf(tenant.org.id, holder),
        UpdateExpression: 'REMOVE #held',
        ExpressionAttributeNames: { '#held': `held#${grantId}` },
      }),
    );
  }
};

const grantsShown = async (userId: string) => {
  const res = await api.get(`/v3/users/${userId}`, admin);
  expect(res.status, res.text).toBe(200);
  return res.body.data.meta.grants as string[];
};
/** What the person may do: list the organisation's teams (`teams:view`, what the role gives). */
const teamsListed = async (userId: string) => {
  const headers = { 'x-session-token': (await startSession(userId)).token };
  return (await api.request('GET', `${org()}/people/teams`, { headers })).status;
};
const selected = async () => (await scanPage(heldGrants.select, undefined, 1000)).items;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Held Grants Migration Org', 5);
  admin = await api.token(tenant.admin);
  role = await created(`${org()}/iam/roles`, {
    type: 'roles',
    attributes: { name: 'Team viewers', permissions: ['teams:view'] },
  });
  const crew = await created(`${org()}/people/teams`, {
    type: 'teams',
    attributes: { name: 'Crew' },
    relationships: {
      members: { data: [person(1), person(2), person(4)].map((id) => ({ type: 'users', id })) },
    },
  });
  old.toUser = await grant({ user: person(0) });
  await asBeforeHolding(old.toUser, [person(0)]);
  old.toTeam = await grant({ team: crew });
  await asBeforeHolding(old.toTeam, [person(1), person(2), person(4)]);
  // A member who left the team since: the grant is migrated to its members today, never to them.
  const left = await api.request('DELETE', `${org()}/people/teams/${crew}/relationships/members`, {
    token: admin,
    body: { data: [{ type: 'users', id: person(4) }] },
  });
  expect(left.status, left.text).toBe(200);
  today = await grant({ user: person(3) });
});
afterAll(async () => {
  await api?.close();
});

describe('grants stored before their holders kept them', () => {
  it('the migration selects the grant records, every one (grants carry no mark of being kept), and nothing else', async () => {
    const items = await selected();
    expect(new Set(items.map((i) => `${i.type}#${i.sk === i.id}`))).toEqual(new Set(['grants#true']));
    expect(items.map((i) => i.id)).toEqual(expect.arrayContaining([old.toUser, old.toTeam, today]));
  });

  it('before the migrations, give their holders nothing and are not in their meta.grants', async () => {
    for (const holder of [person(0), person(1), person(2), person(4)]) {
      expect(await grantsShown(holder)).toEqual([]);
      expect(await teamsListed(holder)).toBe(403);
    }
    expect(await grantsShown(person(3))).toEqual(['Team viewers']);
    expect(await teamsListed(person(3))).toBe(200);
  });

  it('after them, each holder (the grantee, or each member of the team) holds it as one given today; one who left the team does not', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    expect(Object.fromEntries(run.ran.map((m) => [m.name, m.changed]))).toMatchObject({ 'held-grants': 2 });
    for (const holder of [person(0), person(1), person(2), person(3)]) {
      expect(await grantsShown(holder)).toEqual(['Team viewers']);
      expect(await teamsListed(holder)).toBe(200);
    }
    expect(await grantsShown(person(4))).toEqual([]);
    expect(await teamsListed(person(4))).toBe(403);
  });

  it('run again from scratch, it writes nothing', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
