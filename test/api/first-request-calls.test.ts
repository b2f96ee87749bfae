/**
 * Issue 42, item 5 (start-up): the DynamoDB calls a container's first authenticated GET makes before it
 * answers, and how many of them it waits through one after another. Each first-of-its-kind SDK call costs
 * a cold container CPU, and each trip in series costs its client latency, so a change that adds a call or
 * a trip to the first request fails here. A new organisation and caller stand for a cold container: this
 * process holds no budget lease for either, and the tests evaluate grants on every request
 * (GRANT_CACHE_SECONDS=0), as a cold container does on its first.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teams } from '#functions/people/teams';
import { knownPermissions } from '#shared/auth/principal';
import { startSession } from '#shared/auth/sessions';
import { dynamodb } from '#shared/data/clients';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { sequentialTrips, type Timed } from '../support/round-trips';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** A team written directly: a request through the API would lease the organisation's budget first. */
const teamOf = async (orgId: string) => {
  const team = newRecord(teams, orgId, { attributes: { name: 'Night crew', description: 'Works nights.' } });
  await commit(scopeOf([orgId]), [{ create: team }]);
  return team.id;
};

/** Every DynamoDB call one request makes (budget leases and grant evaluation included), in start order. */
const callsOf = async (send: () => Promise<{ status: number; text: string }>) => {
  const calls: (Timed & { command: string })[] = [];
  const count =
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: unknown) => {
      const call = { command: context.commandName ?? '', started: performance.now(), ended: Number.NaN };
      calls.push(call);
      try {
        return await next(args);
      } finally {
        call.ended = performance.now();
      }
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name: 'firstRequestCalls' });
  try {
    const res = await send();
    expect(res.status, res.text).toBe(200);
  } finally {
    dynamodb.middlewareStack.remove('firstRequestCalls');
  }
  return { commands: calls.map((c) => c.command).sort(), trips: sequentialTrips(calls) };
};

/**
 * The first GET of a record: the credentials with the record (one BatchGetItem) beside the caller's grants
 * (one Query), then its organisation's and its own budget leases together (two UpdateItems): four calls in
 * two trips (three before issue 42's start-up work, the grants Query waiting for the BatchGetItem).
 */
const FIRST_GET = {
  commands: ['BatchGetItemCommand', 'QueryCommand', 'UpdateItemCommand', 'UpdateItemCommand'],
  trips: 2,
};

describe('a first authenticated GET makes four DynamoDB calls in two trips', () => {
  let tenant: Tenant;
  let team: string;
  beforeAll(async () => {
    tenant = await newTenant('First Request Org', 1);
    team = await teamOf(tenant.org.id);
  });

  it('with a bearer token (a service account key): the grants Query goes out beside the credentials’ read', async () => {
    const token = await api.token(tenant.viewer);
    expect(await callsOf(() => api.get(`/v3/orgs/${tenant.org.id}/people/teams/${team}`, token))).toEqual(
      FIRST_GET,
    );
  });

  it('with a session: the session token names its principal, so its grants are read beside the session', async () => {
    const fresh = await newTenant('First Request Session Org', 1);
    const user = fresh.people[0]?.id ?? '';
    await grantRole(fresh.org.id, 'viewer', 'user', user);
    const crew = await teamOf(fresh.org.id);
    const headers = { 'x-session-token': (await startSession(user)).token };
    expect(
      await callsOf(() => api.request('GET', `/v3/orgs/${fresh.org.id}/people/teams/${crew}`, { headers })),
    ).toEqual(FIRST_GET);
  });
});

describe('grants read beside a credential are kept only once it holds', () => {
  it('a refused session naming a real principal leaves no permissions cached for it (anyone may name any id)', async () => {
    const fresh = await newTenant('First Request Refused Org', 1);
    const user = fresh.people[0]?.id ?? '';
    await grantRole(fresh.org.id, 'viewer', 'user', user);
    const headers = { 'x-session-token': `sess_${user}.${'A'.repeat(43)}` };
    const res = await api.request('GET', `/v3/orgs/${fresh.org.id}/people/teams`, { headers });
    expect(res.status).toBe(401);
    expect(knownPermissions(user)).toBeUndefined();
  });
});
