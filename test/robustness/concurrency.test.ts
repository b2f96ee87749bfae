/**
 * 50 parallel conflicting updates of one record: each either wins (200) or is told it lost (409
 * CONFLICT.001); the stored record is exactly one winner's version; no update is lost silently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Concurrency Org', 0);
  admin = await api.token(tenant.admin);
});
afterAll(() => api.close());

const WRITERS = 50;

describe('conflicting updates of one record', () => {
  it(`${WRITERS} parallel PATCHes: every answer is 200 or 409, and the record is one winner’s`, async () => {
    const contacts = `/v3/orgs/${tenant.org.id}/customers/contacts`;
    const created = await api.request('POST', contacts, {
      token: admin,
      body: {
        data: {
          type: 'customer-contacts',
          attributes: { association: 'owner', first_name: 'Start', last_name: 'Start' },
        },
      },
    });
    const id = created.body.data.id;
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        api.request('PATCH', `${contacts}/${id}`, {
          token: admin,
          body: {
            data: {
              type: 'customer-contacts',
              id,
              attributes: { first_name: `Writer${i}`, last_name: `Writer${i}` },
            },
          },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const winners = answers.filter((a) => a.status === 200);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    for (const lost of answers.filter((a) => a.status === 409))
      expect(lost.body.errors[0].code).toBe('CONFLICT.001');
    const stored = (await api.get(`${contacts}/${id}`, admin)).body.data.attributes;
    // Each winner wrote both names together: the record is one of theirs, never a mix.
    expect(stored.first_name).toBe(stored.last_name);
    expect(winners.map((w) => w.body.data.attributes.first_name)).toContain(stored.first_name);
    console.info(
      `concurrency: ${winners.length} of ${WRITERS} updates won, ${WRITERS - winners.length} were told 409`,
    );
  });
});
