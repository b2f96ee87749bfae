import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAccountClient, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
const commenters: string[] = [];
let contactId: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Comments Org', 0);
  admin = await api.token(tenant.admin);
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
    token: admin,
    body: {
      data: {
        type: 'roles',
        attributes: {
          name: 'Commenter',
          permissions: ['comments:view', 'comments:create', 'customers:view'],
        },
      },
    },
  });
  expect(role.status, role.text).toBe(201);
  for (const name of ['Commenter A', 'Commenter B']) {
    const client = await createServiceAccountClient(name, [{ org_id: tenant.org.id, role: 'viewer' }]);
    await grantRole(tenant.org.id, role.body.data.id, 'service_account', client.principalId);
    commenters.push(await api.token(client));
  }
  contactId = await newContact();
});
afterAll(() => api.close());

const newContact = async () => {
  const contact = await api.request('POST', `/v3/orgs/${tenant.org.id}/customers/contacts`, {
    token: admin,
    body: {
      data: {
        type: 'customer-contacts',
        attributes: { association: 'occupier', first_name: 'A', last_name: 'B' },
      },
    },
  });
  expect(contact.status, contact.text).toBe(201);
  return contact.body.data.id as string;
};
const comment = (token: string, subject: object, body = 'Called twice, no answer.') =>
  api.request('POST', `/v3/orgs/${tenant.org.id}/comments`, {
    token,
    body: { data: { type: 'comments', attributes: { body, subject } } },
  });

describe('comments on records', () => {
  it('a comment on a commentable record is listed on that record, oldest first', async () => {
    // A contact of its own: other tests comment on the shared one.
    const contactId = await newContact();
    const first = await comment(commenters[0] ?? '', { type: 'customer-contacts', id: contactId });
    expect(first.status, first.text).toBe(201);
    await comment(commenters[1] ?? '', { type: 'customer-contacts', id: contactId }, 'Left a card.');
    const list = await api.get(`/v3/orgs/${tenant.org.id}/comments?filter[subject_id]=${contactId}`, admin);
    expect(list.body.data.map((c: { attributes: { body: string } }) => c.attributes.body)).toEqual([
      'Called twice, no answer.',
      'Left a card.',
    ]);
    expect(list.body.data[0].attributes.subject).toEqual({ type: 'customer-contacts', id: contactId });
  });

  it('a subject that does not exist in the organisation, or a type that takes no comments, is 400', async () => {
    const missing = await comment(admin, {
      type: 'customer-contacts',
      id: '01900000-0000-7000-8000-00000000dead',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/subject');
    const notCommentable = await comment(admin, { type: 'roles', id: contactId });
    expect(notCommentable.body.errors[0].source.pointer).toBe('/data/attributes/subject/type');
  });

  it('listing without filter[subject_id] is 400 naming the parameter', async () => {
    const res = await api.get(`/v3/orgs/${tenant.org.id}/comments`, admin);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.parameter).toBe('filter[subject_id]');
  });
});

describe('DELETE /v3/comments/{comment_id}', () => {
  it('the author deletes their own comment permanently: 204, then 404', async () => {
    const created = await comment(commenters[0] ?? '', { type: 'customer-contacts', id: contactId });
    const path = `/v3/comments/${created.body.data.id}`;
    const res = await api.request('DELETE', path, { token: commenters[0] });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(path, admin)).status).toBe(404);
    expect((await api.request('DELETE', path, { token: commenters[0] })).status).toBe(404);
  });

  it('someone else without comments:moderate is 403; a moderator may delete it', async () => {
    const created = await comment(commenters[0] ?? '', { type: 'customer-contacts', id: contactId });
    const path = `/v3/comments/${created.body.data.id}`;
    const refused = await api.request('DELETE', path, { token: commenters[1] });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('AUTH.002');
    expect((await api.request('DELETE', path, { token: admin })).status).toBe(204);
  });

  it('an unknown comment, a malformed id and another organisation’s comment are 404, 400 and 404', async () => {
    expect(
      (await api.request('DELETE', '/v3/comments/01900000-0000-7000-8000-00000000beef', { token: admin }))
        .status,
    ).toBe(404);
    expect((await api.request('DELETE', '/v3/comments/not-a-uuid', { token: admin })).status).toBe(400);
    const created = await comment(admin, { type: 'customer-contacts', id: contactId });
    const other = await newTenant('Comments Other', 0);
    const res = await api.request('DELETE', `/v3/comments/${created.body.data.id}`, {
      token: await api.token(other.admin),
    });
    expect(res.status).toBe(404);
  });
});
