import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { specificationFiles } from '../../infra/openapi/files';
import { routes } from '../../shared/routes';
import { startTestApi, type TestApi } from '../support/api';

let api: TestApi;
let generated: Awaited<ReturnType<typeof specificationFiles>>;
// biome-ignore lint/suspicious/noExplicitAny: the document is read member by member
let document: any;

beforeAll(async () => {
  api = await startTestApi();
  generated = await specificationFiles();
  document = (await api.get('/v3/specifications/openapi.json')).body;
});
afterAll(() => api.close());

/** The spec's resource areas ("each is a tag of the interface"), as its table names them. */
const SPEC_AREAS = [
  'Actions',
  'Audit Events',
  'Status',
  'Dashboards',
  'Device Backups',
  'Exports',
  'Reports',
  'Customer Appointments',
  'Customer Interactions',
  'Customer Accounts',
  'Contacts',
  'Qualifications',
  'Workflows',
  'Documents',
  'Folders',
  'Document Reviews',
  'Feature Configurations',
  'Equipment',
  'Costs',
  'Locations',
  'Location Imports',
  'Forms',
  'Schemas',
  'Categories',
  'Submissions',
  'IAM Roles',
  'IAM Role Groups',
  'IAM Grants',
  'IAM Permissions',
  'Service Accounts',
  'SSO Providers',
  'Whoami',
  'Bridges',
  'Scheme Shares',
  'Settings',
  'Teams',
  'Job Roles',
  'Users',
  'Invitations',
  'Notifications',
  'Images',
  'Agents',
  'Briefings',
  'Organisations',
  'Permits',
  'Street Works',
  'Projects',
  'Schemes',
  'Scheme Contracts',
  'Work Orders',
  'Operations',
  'Import Templates',
  'Properties',
  'Streets',
  'Vehicles',
  'Search',
  'Specifications',
  'Construction Phase Plans',
  'Pre-Construction Information',
  'Site Attendances',
];

const docs = (name: string) => readFileSync(resolve(import.meta.dirname, '../../docs', name), 'utf8');

/** The served document, read once: each test reads it as it likes (the validator gets its own copy). */
const served = async () => structuredClone(document);

describe('Specifications: the API specification in JSON and YAML (issue 17)', () => {
  it('serves the JSON document without authentication, equal to docs/openapi.json and to the code', async () => {
    const res = await api.get('/v3/specifications/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text, 'docs/openapi.json is stale: run npm run openapi').toBe(docs('openapi.json'));
    expect(res.text, 'the stack serves what the code generates').toBe(generated['openapi.json']);
  });

  it('serves the YAML document, equal to docs/openapi.yaml and to the JSON one', async () => {
    const res = await api.get('/v3/specifications/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(res.text, 'docs/openapi.yaml is stale: run npm run openapi').toBe(docs('openapi.yaml'));
    expect(parse(res.text)).toEqual(JSON.parse(generated['openapi.json']));
  });

  it('passes the OpenAPI 3.1 validator (the official schema and the specification rules)', async () => {
    const document = await served();
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await validate(document);
    expect(result, JSON.stringify(result)).toMatchObject({ valid: true, warnings: [] });
  });

  it('names every route the stack serves, and no other', async () => {
    const { paths } = await served();
    const documented = Object.entries(paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    const ids = documented.map((operation) => {
      const [method = '', path = ''] = operation.split(' ');
      return paths[path][method.toLowerCase()].operationId;
    });
    expect(ids.sort()).toEqual(routes.map((route) => route.id).sort());
  });

  it('carries version 1.0.0, the changelog link, and the three security schemes of the spec', async () => {
    const document = await served();
    expect(document.info.version).toBe('1.0.0');
    expect(document.info.description).toContain('/v3/specifications/changelog.md');
    expect(document.components.securitySchemes).toEqual({
      OAuth2: expect.objectContaining({
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } },
      }),
      Session: { type: 'apiKey', in: 'header', name: 'X-Session-Token' },
      Cookie: { type: 'apiKey', in: 'cookie', name: '__Host-session' },
    });
    const changelog = await api.get('/v3/specifications/changelog.md');
    expect(changelog.status).toBe(200);
    expect(changelog.text).toBe(docs('CHANGELOG.md'));
    expect(changelog.text).toContain('## 1.0.0');
  });

  it('marks the scheme PUT deprecated, and only it', async () => {
    const { paths } = await served();
    const deprecated = Object.values(
      paths as Record<string, Record<string, { deprecated?: boolean; operationId: string }>>,
    )
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.deprecated)
      .map((operation) => operation.operationId);
    expect(deprecated).toEqual(['replaceScheme']);
  });

  it('every other operation names the Session, OAuth2 and Cookie schemes, or none if public', async () => {
    const { paths } = await served();
    for (const route of routes) {
      const operation = paths[route.path][route.method.toLowerCase()];
      expect(operation.security, route.id).toEqual(route.auth.map((scheme) => ({ [scheme]: [] })));
    }
  });

  it('tags each operation with a resource area the spec names', async () => {
    const document = await served();
    const tags = (document.tags as { name: string }[]).map((tag) => tag.name);
    // The token endpoint and JWKS (the spec's Authentication section) and comments have no area of their own.
    const unknown = tags.filter(
      (tag) => !SPEC_AREAS.includes(tag) && !['Authentication', 'Comments'].includes(tag),
    );
    expect(unknown).toEqual([]);
  });
});
