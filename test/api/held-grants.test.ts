/**
 * Issue 19, the table's rows "any include that returns users" and "grant cache expiry": what a principal
 * holds is kept where its own reads find it, written in the grant's transaction. A user's `meta.grants`
 * (the spec's User: "Meta: grants (array of strings)") comes from the user's record, so answering users
 * reads nothing more; a principal's permissions are one Query of its own partition, however many teams
 * it is in. Grants to teams reach every member; revoking or changing one takes effect on the next request
 * (GRANT_CACHE_SECONDS=0 in tests); renaming a role renames it on its holders once the stream delivers it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { dynamodb } from '#shared/data/clients';
import { heldGrantsOf } from '#shared/data/principals';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import { isBudgetLease } from '../support/request-overhead';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Held Grants Org', 4), newTenant('Held Grants Other', 1)]);
  admin = await api.token(tenant.admin);
});
afterAll(() => api.close());

const org = () => `/v3/orgs/${tenant.org.id}`;
const person = (i: number) => tenant.people[i]?.id ?? '';
const created = async (path: string, data: object) => {
  const res = await api.request('POST', path, { token: admin, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const team = (name: string, members: string[]) =>
  created(`${org()}/people/teams`, {
    type: 'teams',
    attributes: { name },
    relationships: { members: { data: members.map((id) => ({ type: 'users', id })) } },
  });
const role = (name: string) =>
  created(`${org()}/iam/roles`, { type: 'roles', attributes: { name, permissions: ['teams:view'] } });
const grant = (given: { role: string }, grantee: { user: string } | { team: string }) => {
  const [name, id] = Object.entries(grantee)[0] ?? [];
  return created(`${org()}/iam/grants`, {
    type: 'grants',
    relationships: {
      role: { data: { type: 'roles', id: given.role } },
      [name ?? '']: { data: { type: `${name}s`, id } },
    },
  });
};
const grantsShown = async (userId: string) => {
  const res = await api.get(`/v3/users/${userId}`, admin);
  expect(res.status, res.text).toBe(200);
  return res.body.data.meta.grants as string[];
};
const session = async (userId: string) => ({ 'x-session-token': (await startSession(userId)).token });

type Input = { KeyConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> };
/** The DynamoDB commands one request makes, with what each Query asked for. */
const commandsOf = async (send: () => Promise<{ status: number; text: string }>) => {
  const calls: { command: string; input: Input }[] = [];
  const count =
    (next: (args: { input: Input }) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: { input: Input }) => {
      if (!isBudgetLease(args.input)) calls.push({ command: context.commandName ?? '', input: args.input });
      return next(args);
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name: 'heldGrantCalls' });
  try {
    const res = await send();
    expect(res.status, res.text).toBe(200);
  } finally {
    dynamodb.middlewareStack.remove('heldGrantCalls');
  }
  return calls;
};

describe('a user’s meta.grants comes from their own record', () => {
  it('names what they hold directly and through each team, and answering users reads no grant', async () => {
    const supervisor = await role('Site supervisor');
    const crew = await team('Night crew', [person(0), person(1)]);
    await grant({ role: 'viewer' }, { team: crew });
    await grant({ role: supervisor }, { user: person(0) });
    expect(await grantsShown(person(0))).toEqual(['Site supervisor', 'viewer']);
    expect(await grantsShown(person(1))).toEqual(['viewer']);

    // A team and its members (warm: the first answer's links have been followed): the credentials, what
    // they hold, the teams' page, its counter and the members by key. No grant record is read.
    const list = () => api.get(`${org()}/people/teams?include=members`, admin);
    await list();
    const calls = await commandsOf(list);
    expect(calls.map((c) => c.command)).toEqual([
      'BatchGetItemCommand',
      'QueryCommand',
      'QueryCommand',
      'BatchGetItemCommand',
      'BatchGetItemCommand',
    ]);
    expect(isOwnGrantsQuery(calls[1]?.input ?? {})).toBe(true);
    expect(JSON.stringify(calls)).not.toMatch(/#grants|GRANTEE#/);
  });

  it('a changed grant renames it on every holder, and a revoked one leaves them', async () => {
    const crew = await team('Day crew', [person(2), person(3)]);
    const given = await grant({ role: 'viewer' }, { team: crew });
    expect(await grantsShown(person(3))).toEqual(['viewer']);
    const path = `${org()}/iam/grants/${given}`;
    const changed = await api.request('PATCH', path, {
      token: admin,
      body: {
        data: {
          type: 'grants',
          id: given,
          relationships: { role: { data: { type: 'roles', id: 'admin' } } },
        },
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await grantsShown(person(2))).toEqual(['admin']);
    expect(await grantsShown(person(3))).toEqual(['admin']);
    expect((await api.request('DELETE', path, { token: admin })).status).toBe(204);
    expect(await grantsShown(person(2))).toEqual([]);
    expect(await grantsShown(person(3))).toEqual([]);
  });

  it('renaming a role renames it on its holders, direct and through teams, once the stream delivers it', async () => {
    const inspector = await role('Inspector');
    const crew = await team('Inspection crew', [person(1)]);
    await grant({ role: inspector }, { team: crew });
    await grant({ role: inspector }, { user: person(2) });
    await deliverEvents(tenant.org.id);
    const renamed = await api.request('PATCH', `${org()}/iam/roles/${inspector}`, {
      token: admin,
      body: { data: { type: 'roles', id: inspector, attributes: { name: 'Lead inspector' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await deliverEvents(tenant.org.id);
    expect(await grantsShown(person(1))).toContain('Lead inspector');
    expect(await grantsShown(person(2))).toEqual(['Lead inspector']);
    expect(await grantsShown(person(1))).not.toContain('Inspector');
  });
});

/** The Query that reads what a principal holds (its own partition's `GRANT#` items). */
const isOwnGrantsQuery = (input: Input) => input.ExpressionAttributeValues?.[':g'] === 'GRANT#';

describe('a principal’s permissions are one Query, however many teams it is in', () => {
  it('a member of three teams, each granted a role, is evaluated with one Query and no Query per team', async () => {
    const member = other.people[0]?.id ?? '';
    const otherAdmin = await api.token(other.admin);
    for (const name of ['Gang A', 'Gang B', 'Gang C']) {
      const res = await api.request('POST', `/v3/orgs/${other.org.id}/people/teams`, {
        token: otherAdmin,
        body: {
          data: {
            type: 'teams',
            attributes: { name },
            relationships: { members: { data: [{ type: 'users', id: member }] } },
          },
        },
      });
      const grantToTeam = await api.request('POST', `/v3/orgs/${other.org.id}/iam/grants`, {
        token: otherAdmin,
        body: {
          data: {
            type: 'grants',
            relationships: {
              role: { data: { type: 'roles', id: 'viewer' } },
              team: { data: { type: 'teams', id: res.body.data.id } },
            },
          },
        },
      });
      expect(grantToTeam.status, grantToTeam.text).toBe(201);
    }
    const headers = await session(member);
    const list = () => api.request('GET', `/v3/orgs/${other.org.id}/people/teams`, { headers });
    await list();
    const calls = await commandsOf(list);
    const queries = calls.filter((c) => c.command === 'QueryCommand');
    // The evaluation's one Query, then the teams' own page: none by grantee, none per team.
    expect(queries.filter((c) => isOwnGrantsQuery(c.input))).toHaveLength(1);
    expect(queries.map((c) => c.input.KeyConditionExpression)).not.toContain('gsi1pk = :g');
    expect(queries).toHaveLength(2);
  });

  it('a member gains a team’s grant at once and loses it at once when it is revoked', async () => {
    const crew = await team('Relief crew', [person(3)]);
    const headers = await session(person(3));
    const list = () => api.request('GET', `${org()}/people/teams`, { headers });
    expect((await list()).status).toBe(403);
    const given = await grant({ role: 'viewer' }, { team: crew });
    expect((await list()).status).toBe(200);
    expect((await api.request('DELETE', `${org()}/iam/grants/${given}`, { token: admin })).status).toBe(204);
    expect((await list()).status).toBe(403);
    expect((await heldGrantsOf(person(3))).map((g) => g.grant_id)).not.toContain(given);
  });

  it('a grant refused (the user is another organisation’s) leaves nothing held by anyone', async () => {
    const outsider = other.people[0]?.id ?? '';
    const before = await heldGrantsOf(outsider);
    const res = await api.request('POST', `${org()}/iam/grants`, {
      token: admin,
      body: {
        data: {
          type: 'grants',
          relationships: {
            role: { data: { type: 'roles', id: 'admin' } },
            user: { data: { type: 'users', id: outsider } },
          },
        },
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/user/data/id');
    expect(await heldGrantsOf(outsider)).toEqual(before);
    expect((await heldGrantsOf(outsider)).filter((g) => g.org_id === tenant.org.id)).toEqual([]);
  });
});
