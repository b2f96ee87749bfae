/**
 * Faults injected into the real DynamoDB client (an SDK middleware, inside the SDK's retry loop, in front
 * of DynamoDB Local): throttling, timeouts and transaction conflicts. Reads recover through retries;
 * writes complete once or leave nothing; when retries run out the answer is 503 with Retry-After.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dynamodb } from '#shared/data/clients';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;

interface Fault {
  command: string;
  times: number;
  /** Let the call reach DynamoDB first, then fail (a timeout after the write happened). */
  after?: boolean;
  error: () => Error;
}
let faults: Fault[] = [];
const injected: string[] = [];

const sdkError = (name: string) =>
  Object.assign(new Error(`${name} (injected)`), { name, $metadata: {}, $fault: 'server' });
const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled (injected)',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
  });

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Faults Org', 0);
  admin = await api.token(tenant.admin);
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      const fault = faults.find((f) => f.command === context.commandName && f.times > 0);
      if (!fault) return next(args);
      fault.times -= 1;
      injected.push(context.commandName ?? '');
      if (fault.after) await next(args);
      throw fault.error();
    },
    { step: 'finalizeRequest', priority: 'low', name: 'injectFaults' },
  );
});
afterEach(() => {
  faults = [];
  injected.length = 0;
});
afterAll(() => api.close());

const contacts = () => `/v3/orgs/${tenant.org.id}/customers/contacts`;
const count = async () => (await api.get(contacts(), admin)).body.meta.pagination.counts.resources as number;
const createContact = (last_name: string) =>
  api.request('POST', contacts(), {
    token: admin,
    body: {
      data: { type: 'customer-contacts', attributes: { association: 'owner', first_name: 'F', last_name } },
    },
  });

describe('reads', () => {
  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException', 'TimeoutError'])(
    'recover from %s through the SDK’s retries',
    async (name) => {
      faults = [{ command: 'QueryCommand', times: 2, error: () => sdkError(name) }];
      const res = await api.get(contacts(), admin);
      expect(res.status, res.text).toBe(200);
      expect(injected).toEqual(['QueryCommand', 'QueryCommand']);
    },
  );

  it('answer 503 with Retry-After (not 500) when the retries run out', async () => {
    faults = [{ command: 'QueryCommand', times: 100, error: () => sdkError('ThrottlingException') }];
    const res = await api.get(contacts(), admin);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.body.errors[0]).toMatchObject({ status: '503', title: 'Service unavailable' });
  });
});

describe('writes', () => {
  it('a transaction cancelled by conflicts is tried again and lands once', async () => {
    const before = await count();
    faults = [{ command: 'TransactWriteItemsCommand', times: 2, error: conflict }];
    const res = await createContact('Conflicted');
    expect(res.status, res.text).toBe(201);
    expect(injected).toHaveLength(2);
    expect(await count()).toBe(before + 1);
  });

  it('a timeout after the write reached DynamoDB is retried with the same token: one record, not two', async () => {
    const before = await count();
    faults = [
      { command: 'TransactWriteItemsCommand', times: 1, after: true, error: () => sdkError('TimeoutError') },
    ];
    const res = await createContact('Timed out');
    expect(res.status, res.text).toBe(201);
    expect(await count()).toBe(before + 1);
    const listed = await api.get(`${contacts()}?filter[last_name]=Timed%20out`, admin);
    expect(listed.body.data).toHaveLength(1);
  });

  it('when conflicts outlast the retries: 503 with Retry-After, and nothing written', async () => {
    const before = await count();
    faults = [{ command: 'TransactWriteItemsCommand', times: 100, error: conflict }];
    const res = await createContact('Never');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    faults = [];
    expect(await count()).toBe(before);
  });

  it('an audited write (a vehicle allocation) under throttling records exactly one event and one audit entry', async () => {
    const post = async (path: string, type: string, attributes: object) => {
      const r = await api.request('POST', `/v3/orgs/${tenant.org.id}${path}`, {
        token: admin,
        body: { data: { type, attributes } },
      });
      expect(r.status, r.text).toBe(201);
      return r.body.data.id as string;
    };
    const vehicle = await post('/assets/vehicles', 'vehicles', { registration: 'FA17 ULT', name: 'Van 1' });
    const location = await post('/governance/locations', 'locations', { name: 'Depot', reference: 'D-1' });
    faults = [
      {
        command: 'TransactWriteItemsCommand',
        times: 2,
        error: () => sdkError('ProvisionedThroughputExceededException'),
      },
    ];
    const res = await api.request('PATCH', `/v3/vehicles/${vehicle}/relationships/allocated_location`, {
      token: admin,
      body: { data: { type: 'locations', id: location } },
    });
    expect(res.status, res.text).toBe(200);
    // One event committed, so one entry once the stream has delivered it (two would show twice).
    await deliverEvents(tenant.org.id);
    const history = await api.get(`/v3/vehicles/${vehicle}/audit-events`, admin);
    expect(history.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'vehicle.allocated',
      'vehicle.created',
    ]);
  });

  it('the audit consumer’s own write, timed out after it landed, is retried into one entry counted once', async () => {
    await deliverEvents(tenant.org.id);
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/vehicles`, {
      token: admin,
      body: { data: { type: 'vehicles', attributes: { registration: 'FA17 AUD' } } },
    });
    expect(res.status, res.text).toBe(201);
    const vehicle = res.body.data.id as string;
    const total = async () =>
      (await api.get(`/v3/orgs/${tenant.org.id}/audit-events`, admin)).body.meta.pagination.counts
        .resources as number;
    const before = await total();
    // Its write (issue 42, item 7): the entry and its counts in one transaction; it lands, then times out.
    faults = [{ command: 'TransactWriteItemsCommand', times: 1 }].map((fault) => ({
      ...fault,
      after: true,
      error: () => sdkError('TimeoutError'),
    }));
    await deliverEvents(tenant.org.id);
    expect(injected).toEqual(['TransactWriteItemsCommand']);
    expect(await total()).toBe(before + 1);
    const history = await api.get(`/v3/vehicles/${vehicle}/audit-events`, admin);
    expect(history.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'vehicle.created',
    ]);
    expect(history.body.meta.pagination.counts.resources).toBe(1);
  });
});
