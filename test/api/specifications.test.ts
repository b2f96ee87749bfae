import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { clientVerbs } from '#shared/engine/lifecycle';
import { resourceTypes, routes } from '#shared/routes';
import { specificationFiles } from '../../infra/openapi/files';
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

  it('carries version 1.1.0 (events, the change feed and idempotency keys, see docs/CHANGELOG.md), the changelog link, and the three security schemes of the spec', async () => {
    const document = await served();
    expect(document.info.version).toBe('1.1.0');
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
    expect(changelog.text).toContain('## 1.1.0');
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
    // The token endpoint and JWKS (the spec's Authentication section), the change feed (its Events
    // section) and comments have no area of their own; webhooks and jobs are issue 18's, not the spec's.
    const unknown = tags.filter(
      (tag) =>
        !SPEC_AREAS.includes(tag) &&
        !['Authentication', 'Events', 'Comments', 'Webhooks', 'Jobs'].includes(tag),
    );
    expect(unknown).toEqual([]);
  });

  it('documents the street-works receiver with no security and a text/plain SNS message', async () => {
    const operation = (await served()).paths['/street-works/protections'].post;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.requestBody.content)).toEqual(['text/plain', 'application/json']);
    const { schema } = operation.requestBody.content['text/plain'];
    expect(schema).toMatchObject({ type: 'string', contentMediaType: 'application/json' });
    const types = schema.contentSchema.oneOf ?? schema.contentSchema.anyOf;
    const fields = (types as { properties: Record<string, unknown>; required: string[] }[]).map((type) => ({
      type: type.properties.Type,
      required: [...type.required].sort(),
    }));
    const signed = ['Message', 'MessageId', 'Signature', 'SignatureVersion', 'SigningCertURL'];
    const always = [...signed, 'Timestamp', 'TopicArn', 'Type'].sort();
    expect(fields).toEqual([
      { type: { type: 'string', const: 'Notification' }, required: always },
      {
        type: { type: 'string', const: 'SubscriptionConfirmation' },
        required: [...always, 'SubscribeURL', 'Token'].sort(),
      },
      {
        type: { type: 'string', const: 'UnsubscribeConfirmation' },
        required: [...always, 'SubscribeURL', 'Token'].sort(),
      },
    ]);
  });

  it('a stateful type’s state is its machine’s enum, and its meta.allowed_transitions names its verbs', async () => {
    const { schemas } = (await served()).components;
    const stateful = [...resourceTypes.values()].filter((definition) => definition.lifecycle);
    expect(stateful.map((definition) => definition.type)).toEqual(
      expect.arrayContaining(['qualification-awards', 'users']),
    );
    // The document names a type's schema after the type (`construction-phase-plan-proposed-changes`).
    const schemaName = (type: string) => type.replace(/(^|-)(.)/g, (_, __, c: string) => c.toUpperCase());
    for (const { type, lifecycle } of stateful) {
      if (!lifecycle) continue;
      const schema = schemas[schemaName(type)];
      // A state read from what the record keeps (an attendance's) is no attribute of its own.
      if (lifecycle.attribute)
        expect(schema.properties.attributes.properties[lifecycle.attribute]).toMatchObject({
          type: 'string',
          enum: lifecycle.states,
        });
      const allowed = schema.properties.meta.properties.allowed_transitions;
      // The verbs a client may ask for: a machine only workers move (a job's) names none.
      const verbs = clientVerbs(lifecycle);
      expect(allowed.items.properties.verb.enum).toEqual(verbs.length > 0 ? verbs : undefined);
      expect(allowed.items.required).toEqual(['verb', 'allowed', 'reasons']);
    }
  });

  it('documents the request body of every route that takes one (bespoke handlers included)', async () => {
    // Routes that change things but read no body: the path names all they act on.
    const bodiless: Record<string, string> = {
      createServiceAccountKey: 'a new key of the account in the path; its secret is generated',
      processLocationImport: 'runs the import in the path on the file already uploaded',
      restoreSchemeContract: 'restores the record in the path',
      restoreScheme: 'restores the record in the path',
      restoreWorkOrder: 'restores the record in the path',
      restoreOperation: 'restores the record in the path',
      handOverConstructionPhasePlan: 'hands over the plan in the path when it is complete',
      acceptHazardProposal: 'accepts the proposal in the path, creating its hazard',
      completeDocumentVersion: 'checks the upload of the version in the path',
      completeImage: 'checks the upload of the image in the path',
      completeDeviceBackup: 'checks the upload of the backup in the path',
      rotateWebhookSubscriptionSecret: 'makes a new secret for the subscription in the path',
      redeliverWebhookDelivery: 'makes the delivery in the path due again',
      resendInvitation: 'sends the invitation in the path again, with a new token',
      revokeInvitation: 'revokes the invitation in the path',
      endSession: 'ends the session that sends it',
      approveQualificationAward: 'approves the award in the path',
      rejectQualificationAward: 'rejects the award in the path',
      revokeQualificationAward: 'revokes the award in the path',
      signOutSiteAttendance: 'ends the attendance in the path, now',
      suspendUser: 'suspends the user in the path',
      deactivateUser: 'deactivates the user in the path',
      reactivateUser: 'reactivates the user in the path',
      approveCostSheet: 'approves the quote of the sheet in the path',
      completeCostSheet: 'completes the sheet in the path',
      reopenCostSheet: 'reopens the completed sheet in the path',
      requoteCostSheet: 'returns the approved sheet in the path to quoted',
      startAction: 'starts the action in the path',
      unblockAction: 'unblocks the action in the path',
      completeAction: 'completes the action in the path',
      requestVerificationAction: 'asks for the action in the path to be verified',
      verifyAction: 'verifies the action in the path',
      claimAction: 'the caller claims the action in the path for its team',
      releaseAction: 'the claimant releases the action in the path',
    };
    const { paths } = await served();
    const undocumented = routes
      .filter((route) => ['POST', 'PATCH', 'PUT'].includes(route.method))
      .filter((route) => !paths[route.path][route.method.toLowerCase()].requestBody)
      .map((route) => route.id);
    expect(undocumented.sort()).toEqual(Object.keys(bodiless).sort());
  });

  it('documents the token endpoint: its form, its token response, and its errors in OAuth form', async () => {
    const operation = (await served()).paths['/oauth2/token'].post;
    const form = operation.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(form.properties.grant_type).toEqual({ type: 'string', const: 'client_credentials' });
    expect(form.required).toEqual(['grant_type']);
    expect(Object.keys(form.properties).sort()).toEqual(['client_id', 'client_secret', 'grant_type']);
    const token = operation.responses['200'].content['application/json'].schema;
    expect(token.required.sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    for (const status of ['400', '401', '429']) {
      const error = operation.responses[status].content['application/json'].schema;
      expect(error.required, status).toEqual(['error', 'error_description']);
    }
    // Refusals of the middlewares before the handler (an unknown query parameter) stay JSON:API.
    expect(Object.keys(operation.responses['400'].content)).toContain('application/vnd.api+json');
  });

  // Last: the validator holds the event loop for seconds, and a request after it can meet the local
  // server closing its idle keep-alive socket (ECONNRESET); nothing is fetched after it.
  it('passes the OpenAPI 3.1 validator (the official schema and the specification rules)', async () => {
    const document = await served();
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await validate(document);
    expect(result, JSON.stringify(result)).toMatchObject({ valid: true, warnings: [] });
  });
});
