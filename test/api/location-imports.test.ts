import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Imports Org', 0);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

const base = () => `/v3/orgs/${tenant.org.id}/governance`;
const importCsv = (csv: string, templateId?: string) =>
  api.request('POST', `${base()}/location-imports`, {
    token,
    body: {
      data: {
        type: 'location-imports',
        attributes: { csv, file_name: 'sites.csv' },
        ...(templateId && {
          relationships: { import_template: { data: { type: 'import-templates', id: templateId } } },
        }),
      },
    },
  });
const locationCount = async () =>
  (await api.get(`${base()}/locations`, token)).body.meta.pagination.counts.resources as number;

const FILE =
  'reference,name,address,latitude,longitude\nS1,North depot,1 Mill Lane,54.33,-2.74\nS2,Reservoir,,54.40,-2.90\n,No reference,,,\nS3,Pumping station,,,\n';

describe('location imports', () => {
  it('imports good rows, rejects bad ones with their line, and records who, when and what', async () => {
    const res = await importCsv(FILE);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      status: 'completed',
      counts: { rows: 4, created: 3, updated: 0, unchanged: 0, rejected: 1 },
      errors: [{ line: 4, message: 'reference is empty' }],
      source: { kind: 'inline', file_name: 'sites.csv' },
    });
    expect(res.body.data.relationships.author_service_account.data.id).toBe(tenant.admin.principalId);
    expect(await locationCount()).toBe(3);
  });

  it('a re-import of the same file changes nothing and writes nothing', async () => {
    const res = await importCsv(FILE);
    expect(res.body.data.attributes.counts).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 3,
      rejected: 1,
    });
    expect(res.body.data.meta.write_calls).toBe(0);
    expect(await locationCount()).toBe(3);
  });

  it('a corrected re-import updates the matching locations instead of duplicating them', async () => {
    const corrected = FILE.replace('North depot', 'North depot (main)').replace('54.40,-2.90', '54.41,-2.91');
    const res = await importCsv(corrected);
    expect(res.body.data.attributes.counts).toMatchObject({ created: 0, updated: 2, unchanged: 1 });
    expect(await locationCount()).toBe(3);
    const s1 = await api.get(`${base()}/locations?filter[reference]=S1`, token);
    expect(s1.body.data[0].attributes.name).toBe('North depot (main)');
  });

  it('a file without the reference column, or that is not CSV, is 400 and writes nothing', async () => {
    const before = (await api.get(`${base()}/location-imports`, token)).body.meta.pagination.counts.resources;
    for (const csv of ['name,address\nDepot,1 Road\n', '\u0000\u0001\u0002binary', '"unterminated,quote\n']) {
      const res = await importCsv(csv);
      expect(res.status, JSON.stringify(csv)).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/csv' });
    }
    expect((await api.get(`${base()}/location-imports`, token)).body.meta.pagination.counts.resources).toBe(
      before,
    );
    expect(await locationCount()).toBe(3);
  });

  it('an import template maps the file’s own column names', async () => {
    const template = await api.request('POST', `${base()}/import-templates`, {
      token,
      body: {
        data: {
          type: 'import-templates',
          attributes: {
            name: 'Council sites',
            target: 'locations',
            columns: { reference: 'Site Code', name: 'Site Name' },
          },
        },
      },
    });
    expect(template.status, template.text).toBe(201);
    const res = await importCsv(
      'Site Code,Site Name\nC1,Quarry\nS1,North depot (main)\n',
      template.body.data.id,
    );
    expect(res.body.data.attributes.counts).toMatchObject({ created: 1, unchanged: 0, updated: 1 });
    expect(res.body.data.relationships.import_template.data.id).toBe(template.body.data.id);
  });

  it('a location’s reference is unique in the organisation, whether it came from an import or the API', async () => {
    const res = await api.request('POST', `${base()}/locations`, {
      token,
      body: { data: { type: 'locations', attributes: { name: 'Duplicate', reference: 'S2' } } },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/reference' });
  });

  it('the bulk path emits no per-row audit events', async () => {
    const res = await api.get(`/v3/orgs/${tenant.org.id}/audit-events?filter[subject_type]=locations`, token);
    expect(res.body.data).toEqual([]);
  });
});
