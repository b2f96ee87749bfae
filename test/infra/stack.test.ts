import { App, NestedStack, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { tableDefinition } from '#shared/data/table-definition';
import { pagesCollection } from '#shared/http/route';
import { fallbackRoute, migrations, type Route, routes } from '#shared/routes';
import { areas } from '../../infra/area-bundle';
import { gatewayRoutes } from '../../infra/gateway-routes';
import { QUOTAS } from '../../infra/quotas';
import { areaFunctionId, ComplianceApiStack } from '../../infra/stack';

// Bundling is skipped here (it is exercised by `npx cdk synth`); the template is what is asserted.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new ComplianceApiStack(app, 'Test', { stage: 'dev' });
const template = Template.fromStack(stack);
type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
/** The parent stack and its nested (per-area) stacks, each with its own template. */
const stacks: Stack[] = [
  stack,
  ...stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack),
];
const templates = stacks.map((s) => (Template.fromStack(s).toJSON() as { Resources: Resources }).Resources);
const resources = templates.flatMap((r) => Object.entries(r));
const ofType = (type: string) => resources.filter(([, r]) => r.Type === type);

type Statement = { Action: string | string[]; Effect: string; Resource: unknown };
const statementsOf = (policy: { Properties: Record<string, unknown> }): Statement[] =>
  (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement.flat();
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

const allRoutes = [...routes, fallbackRoute] as readonly Route[];
/** The IAM actions granted to the role of the function serving `routeId`: its area's function. */
const actionsFor = (routeId: string): string[] => {
  const route = allRoutes.find((r) => r.id === routeId);
  if (!route) throw new Error(`no route ${routeId}`);
  const id = areaFunctionId(route.area);
  const fn = stack.node.findAll().find((c) => c.node.id === id) as LambdaFunction | undefined;
  if (!fn?.role) throw new Error(`no function for ${routeId}`);
  const roleRef = stack.getLogicalId((fn.role as Role).node.defaultChild as never);
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleRef))
    .flatMap(([, p]) => statementsOf(p).flatMap(actionsOf));
};

describe('migrations after deploy', () => {
  it('a custom resource the migration runner serves lists the migrations and waits for every other resource of the stack', () => {
    const own = (template.toJSON() as { Resources: Resources }).Resources;
    const entries = Object.entries(own);
    const found = entries.filter(([, r]) => r.Type === 'Custom::Migrations');
    expect(found).toHaveLength(1);
    const [id, resource] = found[0] as [string, Resources[string] & { DependsOn?: string[] }];
    expect(resource.Properties.Migrations).toEqual(migrations.map((m) => `${m.version} ${m.name}`));
    const runner = entries.find(
      ([, r]) =>
        r.Type === 'AWS::Lambda::Function' &&
        String(r.Properties.Description).startsWith('Runs the migrations'),
    );
    expect(resource.Properties.ServiceToken).toEqual({ 'Fn::GetAtt': [runner?.[0], 'Arn'] });
    // Every area's nested stack and the table are in place before it runs.
    const dependsOn = new Set(resource.DependsOn ?? []);
    const mustWaitFor = entries.filter(
      ([other, r]) => other !== id && ['AWS::CloudFormation::Stack', 'AWS::DynamoDB::Table'].includes(r.Type),
    );
    expect(mustWaitFor.length).toBeGreaterThan(1);
    for (const [other] of mustWaitFor) expect(dependsOn.has(other), other).toBe(true);
  });
});

describe('API: one function per area, a few gateway routes per area', () => {
  it('has exactly the gateway routes derived from the route table, plus $default', () => {
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(
      [...gatewayRoutes(routes).map((g) => `${g.method} ${g.path}`), '$default'].sort(),
    );
  });

  it('has one function per area (the fallback is one), the event consumer, the job worker, the image worker, the due-work runner, the migration runner, the token keys’ reader, and no others', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(areas().size + 6);
    expect(areas().size).toBeLessThan(routes.length / 5);
  });

  it('every function runs Node.js 24 on arm64', () => {
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.Runtime, id).toBe('nodejs24.x');
      expect(fn.Properties.Architectures, id).toEqual(['arm64']);
    }
  });

  it('every function has a log group kept the stage’s days (dev: 14); the API’s access log its own (dev: 30)', () => {
    const groups = ofType('AWS::Logs::LogGroup').map(([, g]) => g.Properties.RetentionInDays);
    expect(groups.filter((days) => days === 14)).toHaveLength(areas().size + 6);
    expect(groups.filter((days) => days === 30)).toHaveLength(1);
    expect(groups).toHaveLength(areas().size + 7);
  });

  it('the API logs every request as JSON with its request id', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
    });
  });
});

describe('table', () => {
  it('is on-demand, encrypted, with point-in-time recovery, TTL on expires_at, and retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      }),
    });
  });

  it('has the indexes of the shared table definition', () => {
    const [, table] = ofType('AWS::DynamoDB::Table')[0] ?? [];
    const names = (key: string) =>
      ((table?.Properties?.[key] as { IndexName: string }[] | undefined) ?? []).map((i) => i.IndexName);
    expect(names('LocalSecondaryIndexes')).toEqual(tableDefinition.localIndexes.map((i) => i.name));
    expect(names('GlobalSecondaryIndexes')).toEqual(tableDefinition.globalIndexes.map((i) => i.name));
  });
});

describe('buckets', () => {
  const buckets = () => ofType('AWS::S3::Bucket').map(([, b]) => b.Properties);
  const expiryOf = (b: Record<string, unknown>) =>
    (
      b.LifecycleConfiguration as
        | { Rules: { ExpirationInDays?: number; Status: string; Prefix?: string }[] }
        | undefined
    )?.Rules;

  it('device backups and exports expire objects after 30 days; documents and images never expire; all four log access', () => {
    const all = buckets();
    expect(all).toHaveLength(5);
    const rules = all.map(expiryOf);
    const whole = rules.map((r) =>
      (r ?? []).filter((rule) => rule.Prefix === undefined && rule.ExpirationInDays !== undefined),
    );
    expect(whole.filter((r) => r[0]?.ExpirationInDays === 30 && r[0].Status === 'Enabled')).toHaveLength(2);
    expect(whole.filter((r) => r.length === 0)).toHaveLength(2);
    // The fifth holds the others' server access logs, for a year.
    expect(whole.filter((r) => r[0]?.ExpirationInDays === 365)).toHaveLength(1);
    expect(all.filter((b) => b.LoggingConfiguration !== undefined)).toHaveLength(4);
  });

  it('the four data buckets drop a multipart upload left unfinished (a failed export job’s parts, an abandoned image upload) after a day', () => {
    const data = buckets().filter((b) => b.LoggingConfiguration !== undefined);
    expect(data).toHaveLength(4);
    for (const bucket of data) {
      expect(expiryOf(bucket)).toContainEqual(
        expect.objectContaining({
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          Status: 'Enabled',
        }),
      );
    }
  });

  it('spent client uploads (uploads/, copied on completion) expire after 7 days in the documents, device-backup and images buckets', () => {
    const uploads = buckets()
      .flatMap((b) => expiryOf(b) ?? [])
      .filter((rule) => rule.Prefix === 'uploads/');
    expect(uploads).toEqual([
      expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 7, Status: 'Enabled' }),
      expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 7, Status: 'Enabled' }),
      expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 7, Status: 'Enabled' }),
    ]);
  });

  it('issue 44: the images bucket is versioned, its originals never expire, a replaced variant (regenerable) goes after a day', () => {
    const [images] = ofType('AWS::S3::Bucket').filter(([id]) => id.startsWith('DataImages'));
    const properties = images?.[1].Properties as Record<string, unknown>;
    expect(properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rules = expiryOf(properties) ?? [];
    // Only uploads expire; nothing under originals/ or variants/ does while current.
    expect(rules.filter((r) => r.ExpirationInDays !== undefined).map((r) => r.Prefix)).toEqual(['uploads/']);
    expect(rules).toContainEqual(
      expect.objectContaining({
        Prefix: 'variants/',
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
        Status: 'Enabled',
      }),
    );
  });

  it('all block public access, are encrypted and retained', () => {
    template.allResources('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: Match.objectLike({
          ServerSideEncryptionConfiguration: [
            Match.objectLike({ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }),
          ],
        }),
      }),
    });
  });

  it('all deny requests that are not over TLS', () => {
    const policies = ofType('AWS::S3::BucketPolicy');
    expect(policies).toHaveLength(5);
    for (const [, policy] of policies) {
      expect(statementsOf(policy)).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });
});

describe('least privilege', () => {
  it('no IAM statement grants a wildcard action', () => {
    for (const [id, policy] of ofType('AWS::IAM::Policy')) {
      for (const action of statementsOf(policy).flatMap(actionsOf)) {
        expect(action, id).not.toBe('*');
        expect(action, id).not.toMatch(/^(dynamodb|s3|kms):\*$/);
      }
    }
  });

  it('an area with a write route can write the table', () => {
    expect(actionsFor('listTeams')).toContain('dynamodb:Query');
    expect(actionsFor('createTeam')).toContain('dynamodb:PutItem');
  });

  it('a read-only area may write nothing but its request budgets: UpdateItem on BUDGET# keys alone (issue 20, item 4)', () => {
    const readOnly = [...areas()].filter(([, r]) => r.every((route) => route.access.table !== 'write'));
    expect(readOnly.length).toBeGreaterThan(0);
    for (const [area, areaRoutes] of readOnly) {
      const id = areaFunctionId(area);
      const fn = stack.node.findAll().find((c) => c.node.id === id) as LambdaFunction;
      const roleRef = stack.getLogicalId((fn.role as Role).node.defaultChild as never);
      const statements = ofType('AWS::IAM::Policy')
        .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleRef))
        .flatMap(([, p]) => statementsOf(p));
      const writes = statements.filter((st) =>
        actionsOf(st).some((a) => /^dynamodb:(Put|Update|Delete|BatchWrite|TransactWrite)/.test(a)),
      );
      if (areaRoutes.every((route) => !route.access.table)) {
        expect(writes, area).toEqual([]);
        continue;
      }
      expect(
        writes.map((w) => [actionsOf(w), (w as { Condition?: unknown }).Condition]),
        area,
      ).toEqual([
        [['dynamodb:UpdateItem'], { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['BUDGET#*'] } }],
      ]);
    }
  });

  it('a route with no table access has no DynamoDB actions', () => {
    expect(actionsFor('fallback').filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
  });

  it('only the area with token-signing routes may use the signing key, and only to sign and publish it', () => {
    for (const [area, areaRoutes] of areas()) {
      const kms = actionsFor(areaRoutes[0]?.id ?? '').filter((a) => a.startsWith('kms:'));
      const signs = areaRoutes.some((r) => r.access.signing === true);
      const encrypts = areaRoutes.some(
        (r) => r.access.webhookSecrets === 'encrypt' || r.access.ssoClientSecrets === 'encrypt',
      );
      const decrypts = areaRoutes.some((r) => r.access.ssoClientSecrets === 'decrypt');
      expect(kms.sort(), area).toEqual([
        ...(decrypts ? ['kms:Decrypt'] : []),
        ...(encrypts ? ['kms:Encrypt'] : []),
        ...(signs ? ['kms:GetPublicKey', 'kms:Sign'] : []),
      ]);
    }
    expect(actionsFor('issueToken')).toContain('kms:Sign');
  });

  it('an area of read routes only cannot write the table', () => {
    const readOnly = [...areas()].filter(([, rs]) => rs.every((r) => r.access.table !== 'write'));
    expect(readOnly.map(([area]) => area)).toContain('status');
    for (const [area, rs] of readOnly)
      expect(actionsFor(rs[0]?.id ?? ''), area).not.toContain('dynamodb:PutItem');
  });

  it('the signing key is an RSA_2048 SIGN_VERIFY key, retained', () => {
    template.hasResource('AWS::KMS::Key', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({ KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' }),
    });
  });
});

describe('token keys (issue 42, item 5): shipped with the deployment, rotated safely', () => {
  const publicKeys = (t: Template) =>
    Object.entries((t.toJSON() as { Resources: Resources }).Resources).filter(
      ([, r]) => r.Type === 'Custom::TokenPublicKey',
    );

  it('every area function carries TOKEN_VERIFICATION_KEYS, so none fetches the JWKS at a cold start', () => {
    const areaFunctions = ofType('AWS::Lambda::Function').filter(([, fn]) =>
      String(fn.Properties.Description).startsWith('API area '),
    );
    expect(areaFunctions).toHaveLength(areas().size);
    for (const [id, fn] of areaFunctions) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.TOKEN_VERIFICATION_KEYS, id).toBeDefined();
    }
  });

  it('the keys are read at deploy, one custom resource per key, by a function that may only read public keys', () => {
    const found = publicKeys(template);
    expect(found).toHaveLength(1);
    const reader = ofType('AWS::Lambda::Function').find(([, r]) =>
      String(r.Properties.Description).startsWith('Reads the token keys'),
    );
    expect(found[0]?.[1].Properties.ServiceToken).toEqual({ 'Fn::GetAtt': [reader?.[0], 'Arn'] });
    const readerRole = (reader?.[1].Properties.Role as { 'Fn::GetAtt': string[] } | undefined)?.[
      'Fn::GetAtt'
    ][0];
    const granted = ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === readerRole))
      .flatMap(([, p]) => statementsOf(p).flatMap(actionsOf));
    // Besides writing its traces (every function's active tracing).
    expect(granted.filter((action) => !action.startsWith('xray:'))).toEqual(['kms:GetPublicKey']);
  });

  it('mid-rotation both keys are shipped, and the signing area may sign with the signing key alone', () => {
    const rotating = new ComplianceApiStack(
      new App({ context: { 'aws:cdk:bundling-stacks': [] } }),
      'Rotating',
      {
        stage: 'dev',
        tokenKeys: { keys: ['TokenSigningKey', 'TokenSigningKeyNext'], signing: 'TokenSigningKeyNext' },
      },
    );
    const t = Template.fromStack(rotating);
    expect(publicKeys(t)).toHaveLength(2);
    const signingKey = rotating.getLogicalId(
      rotating.node.findChild('TokenSigningKeyNext').node.defaultChild as never,
    );
    const signing = [
      rotating,
      ...rotating.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack),
    ]
      .flatMap((s) => Object.values((Template.fromStack(s).toJSON() as { Resources: Resources }).Resources))
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap(statementsOf)
      .filter((st) => actionsOf(st).includes('kms:Sign'));
    expect(signing.length).toBeGreaterThan(0);
    for (const st of signing) expect(JSON.stringify(st.Resource)).toContain(signingKey);
    for (const st of signing)
      expect(JSON.stringify(st.Resource)).not.toMatch(/TokenSigningKey(?!Next)[0-9A-F]{8}/);
  });
});

describe('webhooks (issue 18): the secrets key and the due-work runner that retries deliveries', () => {
  const policyActions = (roleId: string) =>
    ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref.startsWith(roleId)))
      .flatMap(([, p]) => statementsOf(p));
  const keyRef = (statement: Statement) => JSON.stringify(statement.Resource);

  it('the secrets key is a symmetric key with yearly rotation, retained', () => {
    template.hasResource('AWS::KMS::Key', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        EnableKeyRotation: true,
        Description: Match.stringLikeRegexp('webhook'),
      }),
    });
  });

  /** The statements of the API's area functions' roles (not the workers'). */
  const areaStatements = () =>
    [...areas()].flatMap(([area]) => {
      const fn = stack.node.findAll().find((c) => c.node.id === areaFunctionId(area)) as LambdaFunction;
      const roleRef = stack.getLogicalId((fn.role as Role).node.defaultChild as never);
      return ofType('AWS::IAM::Policy')
        .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleRef))
        .flatMap(([, p]) => statementsOf(p).map((statement) => ({ area, statement })));
    });

  it('the API may only encrypt new secrets with it (the webhooks area), never decrypt; no API role decrypts', () => {
    expect(actionsFor('createWebhookSubscription')).toContain('kms:Encrypt');
    const onWebhookKey = areaStatements().filter(({ statement }) =>
      keyRef(statement).includes('WebhooksSecretsKey'),
    );
    expect(onWebhookKey.map(({ area }) => area)).toEqual(['webhooks']);
    for (const { statement } of onWebhookKey) expect(actionsOf(statement)).toEqual(['kms:Encrypt']);
    const encrypt = ofType('AWS::IAM::Policy')
      .flatMap(([, p]) => statementsOf(p))
      .filter((s) => actionsOf(s).includes('kms:Encrypt'));
    expect(encrypt.length).toBeGreaterThan(0);
    for (const statement of encrypt)
      expect(keyRef(statement)).toMatch(/WebhooksSecretsKey|SsoClientSecretsKey/);
  });

  it('SSO client secrets (issue 41) have a key of their own: IAM may only encrypt with it, only the auth area decrypts', () => {
    const onSsoKey = areaStatements().filter(({ statement }) =>
      keyRef(statement).includes('SsoClientSecretsKey'),
    );
    expect(onSsoKey.map(({ area, statement }) => `${area} ${actionsOf(statement).join(',')}`).sort()).toEqual(
      ['auth kms:Decrypt', 'iam kms:Encrypt'],
    );
    const decrypt = areaStatements().filter(({ statement }) => actionsOf(statement).includes('kms:Decrypt'));
    for (const { statement } of decrypt) expect(keyRef(statement)).toContain('SsoClientSecretsKey');
  });

  it('one rule invokes the due-work runner every minute; it may read and write the table, decrypt, start job workers and read the cursor key (notification mail: digests and escalations seal unsubscribe links), nothing else', () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules.map(([, r]) => r.Properties.ScheduleExpression)).toEqual(['rate(1 minute)']);
    const statements = policyActions('DueWorkRunnerRole');
    const actions = statements.flatMap(actionsOf);
    expect(actions).toContain('kms:Decrypt');
    expect(actions).toContain('dynamodb:Query');
    // Besides the table and the key: starting a job's worker, reading the cursor key's secret, and sending
    // its traces (Lambda active tracing). No sender is configured here, so no SES (deploy.test proves it).
    expect(
      [...new Set(actions.filter((a) => !a.startsWith('dynamodb:') && a !== 'kms:Decrypt'))].sort(),
    ).toEqual([
      'lambda:InvokeFunction',
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    for (const statement of statements.filter((s) => actionsOf(s).includes('secretsmanager:GetSecretValue')))
      expect(JSON.stringify(statement.Resource)).toContain('CursorKey');
    for (const statement of statements.filter((s) => actionsOf(s).includes('kms:Decrypt')))
      expect(keyRef(statement)).toContain('WebhooksSecretsKey');
    for (const statement of statements.filter((s) => actionsOf(s).includes('lambda:InvokeFunction')))
      expect(JSON.stringify(statement.Resource)).toContain('JobsWorker');
    const runner = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('DueWorkRunner'));
    expect(runner?.[1].Properties.Environment).toMatchObject({
      Variables: { WEBHOOK_SECRETS_KEY_ID: expect.anything(), JOB_WORKER_FUNCTION: expect.anything() },
    });
    expect(JSON.stringify(runner?.[1].Properties.Environment)).not.toContain('WEBHOOK_ALLOW_LOOPBACK');
  });
});

describe('the image worker (issue 44)', () => {
  const [, worker] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('ImageWorker')) ?? [];
  const statements = ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref.startsWith('ImageWorker')))
    .flatMap(([, p]) => statementsOf(p));
  const resourceText = (statement: Statement) => JSON.stringify(statement.Resource);

  it('runs functions/images/worker.ts on arm64 with 1,024 MB for up to 60 s, told the images bucket', () => {
    expect(worker?.Properties).toMatchObject({
      Architectures: ['arm64'],
      Runtime: 'nodejs24.x',
      MemorySize: 1024,
      Timeout: 60,
      Handler: 'index.handler',
      Environment: { Variables: { IMAGES_BUCKET: expect.anything(), TABLE_NAME: expect.anything() } },
    });
  });

  it('least privilege: S3 reads only under originals/, writes and deletes only under variants/, of the images bucket alone', () => {
    const s3 = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')));
    expect(s3.length).toBeGreaterThan(0);
    for (const statement of s3) {
      const actions = actionsOf(statement);
      const resource = resourceText(statement);
      expect(resource).toContain('DataImages');
      expect(resource).not.toMatch(/DataDocuments|DataExports|DataDeviceBackups/);
      if (
        actions.some((a) => a.startsWith('s3:Put') || a.startsWith('s3:Delete') || a.startsWith('s3:Abort'))
      )
        expect(resource).toContain('/variants/*');
      else if (actions.some((a) => a.startsWith('s3:GetObject'))) expect(resource).toContain('/originals/*');
    }
    expect(s3.flatMap(actionsOf)).toEqual(
      expect.arrayContaining(['s3:PutObject', 's3:DeleteObject*', 's3:GetObject*']),
    );
  });

  it('the event consumer is told its name and may invoke it', () => {
    const [, consumer] =
      ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('FnEventConsumer')) ?? [];
    expect(JSON.stringify(consumer?.Properties.Environment)).toContain('IMAGE_WORKER_FUNCTION');
    const invokes = ofType('AWS::IAM::Policy')
      .filter(([, p]) =>
        (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref.startsWith('EventConsumerRole')),
      )
      .flatMap(([, p]) => statementsOf(p))
      .filter((s) => actionsOf(s).includes('lambda:InvokeFunction'));
    expect(invokes.map(resourceText).join()).toContain('ImageWorker');
  });
});

describe('cursors (issue 19): the key that seals page[cursor]', () => {
  it('a generated secret; every area that pages a collection may read it and is told where, no other', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
    for (const [area, areaRoutes] of areas()) {
      const pages = areaRoutes.some(pagesCollection);
      const first = areaRoutes[0]?.id ?? '';
      expect(actionsFor(first).includes('secretsmanager:GetSecretValue'), area).toBe(pages);
      const fn = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith(areaFunctionId(area)));
      const variables =
        (fn?.[1].Properties.Environment as { Variables?: object } | undefined)?.Variables ?? {};
      expect(Object.keys(variables).includes('CURSOR_KEY_SECRET_ARN'), area).toBe(pages);
    }
    expect([...areas().values()].filter((r) => r.some(pagesCollection)).length).toBeGreaterThan(15);
  });
});

/**
 * The route table twice over: every route again in an area of its own twin (`assets-2`), under a twin
 * prefix (`/v3/orgs/{org_id}/assets-2/…`, `/v3/vehicles-2/…`), as the second half of the mission will be.
 */
const doubled = (): Route[] => {
  const twin = (route: Route): Route => {
    const segments = route.path.split('/');
    const at = segments[2] === 'orgs' && segments.length > 4 ? 4 : Math.min(2, segments.length - 1);
    segments[at] = `${segments[at]}-2`;
    return {
      ...route,
      id: `${route.id}2`,
      path: segments.join('/'),
      handler: route.handler.replace(/^functions\/([^/]+)/, 'functions/$1-2'),
    };
  };
  return [...routes, ...routes.map(twin)];
};

describe('API Gateway quotas (HTTP API defaults: 300 routes, raisable; 300 integrations, not raisable)', () => {
  const integrations = ofType('AWS::ApiGatewayV2::Integration').length;
  const gatewayRouteCount = ofType('AWS::ApiGatewayV2::Route').length;

  it(`the API has at most ${QUOTAS.routes} routes and ${QUOTAS.integrations} integrations (now: ${gatewayRouteCount} and ${integrations})`, () => {
    expect(gatewayRouteCount).toBeLessThanOrEqual(QUOTAS.routes);
    expect(integrations).toBeLessThanOrEqual(QUOTAS.integrations);
    expect(integrations).toBe(areas().size);
  });

  it('twice today’s routes still fit within the quotas (infra/quotas.ts)', () => {
    const twice = doubled();
    const areaCount = new Set(twice.map((route) => route.area)).size + 1;
    expect(twice.length).toBe(routes.length * 2);
    expect(gatewayRoutes(twice).length, `${gatewayRoutes(twice).length} gateway routes`).toBeLessThanOrEqual(
      QUOTAS.routes,
    );
    expect(areaCount, `${areaCount} integrations`).toBeLessThanOrEqual(QUOTAS.integrations);
  });
});

describe('CloudFormation limits', () => {
  it('every stack stays well under the 500-resource limit (areas are nested stacks; split further before 450)', () => {
    expect(stacks.length).toBeGreaterThan(1);
    for (const [i, r] of templates.entries())
      expect(Object.keys(r).length, stacks[i]?.node.path).toBeLessThanOrEqual(QUOTAS.resourcesPerStack);
  });
});

describe('street works (context streetWorksTopicArns, streetWorksOrganisations)', () => {
  // The national feed's topics need not live in the stack's region (issue 20, item 2).
  const topics = [
    'arn:aws:sns:eu-west-2:111122223333:street-works-permits',
    'arn:aws:sns:eu-central-1:111122223333:street-works-permits',
  ];
  const withTopics = new ComplianceApiStack(
    new App({ context: { 'aws:cdk:bundling-stacks': [] } }),
    'StreetWorks',
    {
      stage: 'prod',
      streetWorksTopicArns: topics,
      streetWorksOrganisations: 'TW=01900000-0000-7000-8000-0000000000a1',
    },
  );
  const parent = Template.fromStack(withTopics);
  const receiverStack = withTopics.node
    .findAll()
    .filter((c): c is NestedStack => c instanceof NestedStack)
    .map((s) => Template.fromStack(s))
    .find((t) =>
      Object.keys(t.findResources('AWS::Lambda::Function')).some((id) => id.includes('FnStreetWorksFeed')),
    );

  it('subscribes the receiver’s HTTPS URL to each topic with an exponential-backoff delivery policy', () => {
    parent.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'https',
      TopicArn: topics[0],
      Endpoint: Match.objectLike({
        'Fn::Join': Match.arrayWith([Match.arrayWith(['/street-works/protections'])]),
      }),
      DeliveryPolicy: {
        healthyRetryPolicy: Match.objectLike({ backoffFunction: 'EXPONENTIAL', numRetries: 30 }),
      },
    });
  });

  it('subscribes each topic in its own region, once the receiver’s stack (its function and route) exists', () => {
    const subscriptions = Object.values(parent.findResources('AWS::SNS::Subscription')) as {
      Properties: { TopicArn: string; Region: string };
      DependsOn?: string[];
    }[];
    expect(subscriptions.map((s) => [s.Properties.TopicArn, s.Properties.Region])).toEqual([
      [topics[0], 'eu-west-2'],
      [topics[1], 'eu-central-1'],
    ]);
    const receiverNested = withTopics.node
      .findAll()
      .find((c): c is NestedStack => c instanceof NestedStack && c.node.id === 'AreaStreetWorksFeed');
    expect(receiverNested).toBeDefined();
    const receiverId = withTopics.getLogicalId(receiverNested?.nestedStackResource as never);
    for (const s of subscriptions) expect(s.DependsOn).toContain(receiverId);
  });

  it('gives the receiver the topics and routing, and only it may ConfirmSubscription, on those topics', () => {
    receiverStack?.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          SNS_TOPIC_ARNS: topics.join(','),
          STREET_WORKS_ORGANISATIONS: 'TW=01900000-0000-7000-8000-0000000000a1',
        }),
      },
    });
    expect(receiverStack).toBeDefined();
    const confirming = Object.values(parent.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p).includes('sns:ConfirmSubscription'),
    );
    expect(confirming).toHaveLength(1);
    expect(JSON.stringify(confirming[0])).toContain(topics[0]);
  });

  it('alarms when a topic unsubscribes the receiver', () => {
    parent.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'StreetWorksUnsubscribed',
      Namespace: 'ComplianceApi',
      // The dimensions Powertools' metrics write (service, then the default Stage).
      Dimensions: Match.arrayEquals([
        { Name: 'Stage', Value: 'prod' },
        { Name: 'service', Value: 'compliance-api' },
      ]),
      Threshold: 1,
    });
  });

  it('without topics nothing is subscribed and no role may confirm', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(JSON.stringify(template.toJSON())).not.toContain('sns:ConfirmSubscription');
  });
});

describe('events (issue 18, item 2): the table’s stream → the event consumer', () => {
  it('the table streams new images', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('only new event items reach the consumer, in order, retried for 24 h from a failed record, then to a dead-letter queue', () => {
    const [mapping, ...others] = ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);
    expect(others).toEqual([]);
    expect(mapping).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRecordAgeInSeconds: 86_400,
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    const criteria = mapping?.FilterCriteria as { Filters: { Pattern: string }[] } | undefined;
    expect(JSON.parse(criteria?.Filters[0]?.Pattern ?? '{}')).toEqual({
      eventName: ['INSERT'],
      dynamodb: { Keys: { pk: { S: [{ prefix: 'EVENTS#' }] } } },
    });
  });

  it('a dead letter and a consumer behind by 5 minutes each raise an alarm', () => {
    const metrics = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.MetricName);
    expect(metrics).toEqual(expect.arrayContaining(['ApproximateNumberOfMessagesVisible', 'IteratorAge']));
  });
});
