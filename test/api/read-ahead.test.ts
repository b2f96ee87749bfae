/**
 * Issue 19, item 5: a single-record GET reads its record, and the records its answer derives from by key
 * (a scheme's progress, a folder's tally), in the one BatchGetItem that reads the caller's credentials, for every declared
 * type, whether its path names the organisation or not: a warm container names the organisations from
 * the permissions it last evaluated for the caller. Walked over every declared GET route against one
 * record of every kind (test/support/every-record.ts). Reads that evaluate grants are left out of the
 * count (the tests evaluate them on every request, GRANT_CACHE_SECONDS=0); see the grant cache in
 * shared/auth/principal.ts.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRecord, grantWrites, holdingOps } from '#functions/iam/grant-writes';
import { streets } from '#functions/places/definitions';
import { dynamodb } from '#shared/data/clients';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { declaredType } from '#shared/engine/resource-definition';
import { type Route, routes } from '#shared/routes';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { buildEveryRecord, type EveryRecord } from '../support/every-record';
import { isBudgetLease } from '../support/request-overhead';
import { STREET_WORKS_ORGS } from '../support/street-works-config';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let every: EveryRecord;

const getRoutes = routes.filter((r: Route) => r.method === 'GET' && r.declared?.operation === 'get');

type Input = {
  RequestItems?: Record<string, { Keys?: { pk: string }[] }>;
  Key?: { pk: string };
  IndexName?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
};

/** Reads that evaluate the caller's grants: those it holds, and custom roles and groups by id. */
const evaluatesGrants = (command: string, input: Input) => {
  if (command === 'QueryCommand') return input.ExpressionAttributeValues?.[':g'] === 'GRANT#';
  const keys = Object.values(input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []);
  return keys.length > 0 && keys.every((k) => /#(roles|role-groups)$/.test(k.pk));
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Read Ahead Org', 2, STREET_WORKS_ORGS.TW);
  token = await api.token(tenant.admin);
  every = await buildEveryRecord(api, tenant, { token, reference: 'TW' });
}, 240_000);
afterAll(() => api.close());

/** The DynamoDB commands a request makes besides grant evaluation, in order. */
const commandsOf = async (send: () => Promise<{ status: number; text: string }>, status: number) => {
  const calls: string[] = [];
  const count =
    (next: (args: { input: Input }) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: { input: Input }) => {
      if (!evaluatesGrants(context.commandName ?? '', args.input) && !isBudgetLease(args.input))
        calls.push(context.commandName ?? '');
      return next(args);
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name: 'writeCalls' });
  try {
    const res = await send();
    expect(res.status, res.text).toBe(status);
  } finally {
    dynamodb.middlewareStack.remove('writeCalls');
  }
  return calls;
};

describe('a single-record GET reads its record with the credentials', () => {
  it('the walk covers the declared GET routes', () => {
    expect(getRoutes.length).toBeGreaterThanOrEqual(55);
  });

  it.each(getRoutes.map((r) => [r.id, r] as const))(
    '%s: warm, one round trip to DynamoDB besides grant evaluation',
    async (_, route) => {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => every.idFor(route, name));
      // A device backup is its user's: read with that user's session (and so the Session scheme too).
      const headers = route.id === 'getDeviceBackup' ? { 'x-session-token': every.session } : undefined;
      const get = () => (headers ? api.request('GET', path, { headers }) : api.get(path, token));
      const first = await get(); // warms the container: it learns where the caller holds permissions
      expect(first.status, first.text).toBe(200);
      const calls = await commandsOf(get, 200);
      // Issue 41: a type whose movers only other records name (CDM duty holders: the scheme's file) reads
      // that one item too, for the caller's meta.allowed_transitions; an action its type and evidence count,
      // in one BatchGetItem (issue 45).
      const moversElsewhere =
        route.declared && declaredType(route.declared.resource.type)?.lifecycle?.partiesReadFacts === true;
      expect(calls, `${route.id}: DynamoDB calls besides grant evaluation`).toEqual([
        'BatchGetItemCommand',
        ...(moversElsewhere ? [expect.stringMatching(/^(BatchGetItem|GetItem)Command$/)] : []),
      ]);
    },
  );
});

describe('a PATCH or DELETE of a declared resource reads its record with the credentials, then writes', () => {
  it.each([
    ['equipment-manufacturers', 'assets/equipment-manufacturers', null, { name: 'Makita UK' }],
    ['customer-contacts', 'customers/contacts', null, { first_name: 'Ada' }],
    // Its path names no organisation: the warm container's hint does.
    ['job-roles', 'people/job-roles', '/v3/job-roles', { name: 'Appointed Person (Lifting)' }],
  ])(
    '%s: one BatchGetItem (credentials and record), then one transaction',
    async (type, path, item, change) => {
      const list = await api.get(`/v3/orgs/${tenant.org.id}/${path}?page[limit]=1`, token);
      const id = list.body.data[0]?.id as string;
      expect(id, `${type}: a record to change`).toBeTruthy();
      const url = `${item ?? `/v3/orgs/${tenant.org.id}/${path}`}/${id}`;
      const body = { data: { type, id, attributes: change } };
      const patched = await commandsOf(() => api.request('PATCH', url, { token, body }), 200);
      expect(patched).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    },
  );

  it('POST a subfolder (issue 19, writes row: 6 round trips before): the credentials, its parent, one transaction, its id directory entry put once that has committed (issue 42, item 7), and nothing read after: the answer is built from what was written', async () => {
    const folders = `/v3/orgs/${tenant.org.id}/folders`;
    const body = (name: string, parent?: string) => ({
      data: {
        type: 'folders',
        attributes: { name },
        ...(parent && { relationships: { parent: { data: { type: 'folders', id: parent } } } }),
      },
    });
    const top = await api.request('POST', folders, { token, body: body('Read ahead') });
    expect(top.status, top.text).toBe(201);
    let answer: { meta?: Record<string, unknown> } = {};
    const calls = await commandsOf(async () => {
      const res = await api.request('POST', folders, { token, body: body('Drawings', top.body.data.id) });
      answer = res.body.data;
      return res;
    }, 201);
    expect(calls).toEqual([
      'BatchGetItemCommand',
      'BatchGetItemCommand',
      'TransactWriteItemsCommand',
      'PutItemCommand',
    ]);
    expect(answer.meta).toMatchObject({ path: '/Read ahead/Drawings', document_count: 0, size: 0 });
  });

  it('moving equipment between vehicles, and deleting it (issue 19, writes row: 4 round trips before): the record with the credentials, then one transaction; each vehicle keeps what it carries without being read', async () => {
    const assets = `/v3/orgs/${tenant.org.id}/assets`;
    const make = async (path: string, body: object) => {
      const res = await api.request('POST', `${assets}/${path}`, { token, body });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    const vehicle = (registration: string) =>
      make('vehicles', { data: { type: 'vehicles', attributes: { registration } } });
    const [from, to] = [await vehicle('RA24 ONE'), await vehicle('RA24 TWO')];
    const on = (id: string) => ({ vehicle: { data: { type: 'vehicles', id } } });
    const item = await make('equipment', {
      data: { type: 'equipment-items', attributes: { serial: 'READ-AHEAD-1' }, relationships: on(from) },
    });
    const carried = async (id: string) =>
      (await api.get(`/v3/vehicles/${id}`, token)).body.data.relationships.equipment.data.map(
        (r: { id: string }) => r.id,
      );
    expect(await carried(from)).toEqual([item]);
    const body = { data: { type: 'equipment-items', id: item, relationships: on(to) } };
    const url = `${assets}/equipment/${item}`;
    const moved = await commandsOf(() => api.request('PATCH', url, { token, body }), 200);
    expect(moved).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    expect([await carried(from), await carried(to)]).toEqual([[], [item]]);
    const deleted = await commandsOf(() => api.request('DELETE', url, { token }), 204);
    expect(deleted).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    expect(await carried(to)).toEqual([]);
  });

  it('a DELETE: one BatchGetItem, then one transaction', async () => {
    const made = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`, {
      token,
      body: { data: { type: 'equipment-manufacturers', attributes: { name: 'Read Ahead Tools' } } },
    });
    expect(made.status, made.text).toBe(201);
    const url = `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers/${made.body.data.id}`;
    const deleted = await commandsOf(() => api.request('DELETE', url, { token }), 204);
    expect(deleted).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
  });
});

describe('reading ahead never widens access', () => {
  it('a record read ahead in an organisation the caller has just lost is 404, not answered', async () => {
    const other = await newTenant('Read Ahead Other', 1);
    const street = newRecord(streets, other.org.id, {
      attributes: { name: 'Fell Road', usrn: '30100001', town: 'Sedbergh' },
    });
    await commit(scopeOf([other.org.id]), [{ create: street }]);
    const client = await createServiceAccountClient('Read ahead both', [
      { org_id: tenant.org.id, role: 'viewer' },
    ]);
    const grant = grantRecord(other.org.id, { role: 'viewer', service_account: client.principalId });
    await commit(scopeOf([other.org.id]), grantWrites(grant));
    const both = await api.token(client);
    const path = `/v3/streets/${street.id}`;
    // Warm: this container now knows the caller holds places:view in the other organisation.
    expect((await api.get(path, both)).status).toBe(200);
    await commit(scopeOf([other.org.id]), [
      { delete: grant },
      ...holdingOps(grant, [client.principalId], null),
    ]);
    const reads: string[] = [];
    const count = (next: (args: { input: Input }) => Promise<unknown>) => async (args: { input: Input }) => {
      reads.push(
        ...Object.values(args.input.RequestItems ?? {}).flatMap((r) => (r.Keys ?? []).map((k) => k.pk)),
      );
      return next(args);
    };
    dynamodb.middlewareStack.add(count as never, { step: 'initialize', name: 'staleHint' });
    try {
      const res = await api.get(path, both);
      // The stale hint still read the street with the credentials; the scope, evaluated afresh, drops it.
      expect(reads).toContain(`ORG#${other.org.id}#streets`);
      expect(res.status, res.text).toBe(404);
    } finally {
      dynamodb.middlewareStack.remove('staleHint');
    }
  });
});
