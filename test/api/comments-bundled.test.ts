import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commentableTypes } from '#functions/comments/comments';
import { areas, bundleArea } from '../../infra/area-bundle';
import { startTestApi, type TestApi } from '../support/api';
import { invokeBuilt } from '../support/bundle-env';
import { newTenant, type Tenant } from '../support/tenants';

const out = mkdtempSync(join(tmpdir(), 'comments-bundled-'));
let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Bundled Comments Org', 0);
  token = await api.token(tenant.admin);
  bundleArea('comments', areas().get('comments') ?? [], out);
}, 60_000);
afterAll(async () => {
  await api.close();
  rmSync(out, { recursive: true, force: true });
});

/** POSTs each body to the bundled function's create route, one cold process for all; their answers. */
const postComments = (bodies: object[]) => {
  const path = `/v3/orgs/${tenant.org.id}/comments`;
  const events = bodies.map((body) => ({
    version: '2.0',
    rawPath: path,
    rawQueryString: '',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/vnd.api+json',
      accept: 'application/vnd.api+json',
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: {
      domainName: 'test',
      requestId: 'test',
      http: { method: 'POST', path, sourceIp: '127.0.0.1' },
    },
  }));
  return invokeBuilt(join(out, 'index.mjs'), events);
};

it('the deployed comments function checks a subject of every commentable type: 400 at the subject for an absent record, 201 for a present one', async () => {
  const contact = await api.request('POST', `/v3/orgs/${tenant.org.id}/customers/contacts`, {
    token,
    body: {
      data: {
        type: 'customer-contacts',
        attributes: { association: 'occupier', first_name: 'A', last_name: 'B' },
      },
    },
  });
  expect(contact.status, contact.text).toBe(201);
  const body = (type: string, id: string) => ({
    data: { type: 'comments', attributes: { body: 'Checked on site.', subject: { type, id } } },
  });
  const absent = '0190a0a0-0000-7000-8000-00000000abcd';
  const answers = postComments([
    ...commentableTypes.map((type) => body(type, absent)),
    body('customer-contacts', contact.body.data.id),
  ]);
  const present = answers.pop();
  expect(present?.statusCode, present?.body).toBe(201);
  expect(
    answers.map(({ statusCode, body }) => [statusCode, JSON.parse(body).errors?.[0]?.source?.pointer]),
  ).toEqual(commentableTypes.map(() => [400, '/data/attributes/subject']));
  // The comment the function wrote is read back through the API, on its subject.
  const listed = await api.get(
    `/v3/orgs/${tenant.org.id}/comments?filter[subject_id]=${contact.body.data.id}`,
    token,
  );
  expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([
    JSON.parse(present?.body ?? '{}').data.id,
  ]);
}, 60_000);
