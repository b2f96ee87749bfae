import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let session: Record<string, string>;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Customers Org', 1), newTenant('Customers Other', 0)]);
  const person = tenant.people[0]?.id ?? '';
  await grantRole(tenant.org.id, 'admin', 'user', person);
  session = { 'x-session-token': (await startSession(person)).token };
  admin = await api.token(tenant.admin);
});
afterAll(() => api.close());

const base = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/customers`;
const post = async (segment: string, type: string, attributes: object, relationships?: object) => {
  const res = await api.request('POST', `${base()}/${segment}`, {
    headers: session,
    body: { data: { type, attributes, ...(relationships && { relationships }) } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
/** An account, a contact in it and an interaction with the contact, made by the signed-in user. */
const contactWithInteraction = async () => {
  const account = await post('accounts', 'customer-accounts', {
    name: 'Flat 3, 12 High Street',
    kind: 'domestic',
    reference: 'ACC-12-3',
  });
  const contact = await post(
    'contacts',
    'customer-contacts',
    {
      association: 'occupier',
      salutation: 'Mr',
      first_name: 'Sam',
      last_name: 'Okafor',
      email: 'sam@example.com',
      telephone: '+44 20 7946 0000',
    },
    { accounts: { data: [{ type: 'customer-accounts', id: account }] } },
  );
  const interaction = await post(
    'interactions',
    'customer-interactions',
    {
      channel: 'phone',
      direction: 'inbound',
      occurred_at: '2026-11-20T10:00:00Z',
      summary: 'Asked when the road reopens',
    },
    { contact: { data: { type: 'customer-contacts', id: contact } } },
  );
  return { account, contact, interaction };
};

describe('GET /v3/orgs/{org_id}/customers/contacts/{contact_id}', () => {
  it('answers every field of the spec’s Customer contact table, with author, accounts, interactions and organisation included', async () => {
    const ids = await contactWithInteraction();
    const res = await api.get(
      `${base()}/contacts/${ids.contact}?include=author,accounts,interactions,organisation`,
      admin,
    );
    expect(res.status, res.text).toBe(200);
    const { data, included } = res.body;
    expect(data.attributes).toEqual({
      association: 'occupier',
      salutation: 'Mr',
      first_name: 'Sam',
      last_name: 'Okafor',
      email: 'sam@example.com',
      telephone: '+44 20 7946 0000',
    });
    expect(Object.keys(data.meta).sort()).toEqual(['created_at', 'modified_at', 'updated_at']);
    expect(data.relationships.interactions.data).toEqual([
      { type: 'customer-interactions', id: ids.interaction },
    ]);
    expect(data.relationships.author.data).toEqual({ type: 'users', id: tenant.people[0]?.id });
    const types = included.map((r: { type: string }) => r.type).sort();
    expect(types).toEqual(['customer-accounts', 'customer-interactions', 'organisations', 'users']);
    const author = included.find((r: { type: string }) => r.type === 'users');
    expect(Object.keys(author.attributes.profile).sort()).toEqual([
      'address',
      'contact',
      'personal',
      'settings',
      'work',
    ]);
  });

  it('a contact in another organisation is 404; an unknown include is 400', async () => {
    const ids = await contactWithInteraction();
    const token = await api.token(other.admin);
    expect((await api.get(`${base()}/contacts/${ids.contact}`, token)).status).toBe(404);
    expect((await api.get(`${base(other.org.id)}/contacts/${ids.contact}`, token)).status).toBe(404);
    const bad = await api.get(`${base()}/contacts/${ids.contact}?include=notes`, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe('include');
  });
});

describe('customer records: create, change, delete', () => {
  it('validation names each bad member (400), and unknown members are refused', async () => {
    const res = await api.request('POST', `${base()}/contacts`, {
      token: admin,
      body: {
        data: {
          type: 'customer-contacts',
          attributes: {
            association: 'neighbour',
            first_name: '',
            last_name: 'X',
            email: 'not-an-email',
            nickname: 'x',
          },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/association',
      '/data/attributes/email',
      '/data/attributes/first_name',
      '/data/attributes/nickname',
    ]);
  });

  it('a relationship to a record outside the organisation is 400 at its pointer, nothing written', async () => {
    const before = await api.get(`${base()}/appointments`, admin);
    const res = await api.request('POST', `${base()}/appointments`, {
      token: admin,
      body: {
        data: {
          type: 'customer-appointments',
          attributes: { starts_at: '2026-12-01T09:00:00Z', purpose: 'Survey', status: 'scheduled' },
          relationships: {
            contact: { data: { type: 'customer-contacts', id: '01900000-0000-7000-8000-00000000ffff' } },
          },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/contact/data');
    const after = await api.get(`${base()}/appointments`, admin);
    expect(after.body.meta.pagination.counts.resources).toBe(before.body.meta.pagination.counts.resources);
  });

  it('appointments and accounts change through PATCH; a service account author is recorded as such', async () => {
    const ids = await contactWithInteraction();
    const res = await api.request('POST', `${base()}/appointments`, {
      token: admin,
      body: {
        data: {
          type: 'customer-appointments',
          attributes: { starts_at: '2026-12-01T09:00:00Z', purpose: 'Meter survey', status: 'scheduled' },
          relationships: { contact: { data: { type: 'customer-contacts', id: ids.contact } } },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.relationships.author_service_account.data.id).toBe(tenant.admin.principalId);
    const id = res.body.data.id;
    const patched = await api.request('PATCH', `${base()}/appointments/${id}`, {
      token: admin,
      body: { data: { type: 'customer-appointments', id, attributes: { status: 'completed' } } },
    });
    expect(patched.body.data.attributes.status).toBe('completed');
    const listed = await api.get(
      `${base()}/appointments?filter[contact]=${ids.contact}&filter[status]=completed`,
      admin,
    );
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([id]);
  });

  it('an interaction with a contact of another organisation is 400 at the contact, nothing listed', async () => {
    const ids = await contactWithInteraction();
    const token = await api.token(other.admin);
    const res = await api.request('POST', `${base(other.org.id)}/interactions`, {
      token,
      body: {
        data: {
          type: 'customer-interactions',
          attributes: {
            channel: 'email',
            direction: 'outbound',
            occurred_at: '2026-11-21T10:00:00Z',
            summary: 'x',
          },
          relationships: { contact: { data: { type: 'customer-contacts', id: ids.contact } } },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/contact/data');
    const contact = await api.get(`${base()}/contacts/${ids.contact}`, admin);
    expect(contact.body.data.relationships.interactions.data).toHaveLength(1);
  });

  it('deleting an interaction takes it off its contact’s list (204)', async () => {
    const ids = await contactWithInteraction();
    const res = await api.request('DELETE', `${base()}/interactions/${ids.interaction}`, { token: admin });
    expect(res.status).toBe(204);
    const contact = await api.get(`${base()}/contacts/${ids.contact}`, admin);
    expect(contact.body.data.relationships.interactions.data).toEqual([]);
  });

  it('a viewer may read but not write (403)', async () => {
    const ids = await contactWithInteraction();
    const viewer = await api.token(tenant.viewer);
    expect((await api.get(`${base()}/contacts`, viewer)).status).toBe(200);
    const res = await api.request('DELETE', `${base()}/contacts/${ids.contact}`, { token: viewer });
    expect(res.status).toBe(403);
  });
});
