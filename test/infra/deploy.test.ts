/**
 * Issue 20, items 1 and 2: deployable as documented. Every `npx cdk` command of the Deploying guide
 * (docs/deploying.md) is run against the app (its options through `infra/context.ts`, as `infra/app.ts` reads them;
 * a synth, deploy or diff synthesises the stack they make); a custom domain serves the API at the URL the
 * tokens name as their issuer; without one, the issuer is the API's own URL.
 */
import { readFileSync } from 'node:fs';
import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { appWith, composeStack } from '../../infra/compose';
import { CONTEXT_KEYS, stackFromContext } from '../../infra/context';

/** The Deploying guide (docs/deploying.md), the whole page. */
const deploying = readFileSync('docs/deploying.md', 'utf8');

/** Each `npx cdk` command in the section's shell blocks: its verb and its `-c key=value` options. */
const commands = [...deploying.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((block) => (block[1] ?? '').split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line.startsWith('npx cdk '))
  .map((line) => {
    const words = line.split(/\s+/);
    const context: Record<string, string> = {};
    words.forEach((word, i) => {
      if (word !== '-c' && word !== '--context') return;
      const option = words[i + 1] ?? '';
      const eq = option.indexOf('=');
      context[option.slice(0, eq)] = option.slice(eq + 1);
    });
    return { line, verb: words[2] ?? '', context };
  });

/** The app as `infra/app.ts` makes it for some context (cdk.json's under it), bundling skipped. */
const synthesised = (context: Record<string, unknown>) => {
  const stack = composeStack(appWith(context));
  return { stack, template: Template.fromStack(stack) };
};

describe('the Deploying guide, docs/deploying.md (issue 20, item 2)', () => {
  it('has the commands of a first deploy, in order: bootstrap, synth, deploy', () => {
    const verbs = commands.map((c) => c.verb);
    expect(verbs.slice(0, 3)).toEqual(['bootstrap', 'synth', 'deploy']);
    expect(verbs.filter((v) => !['bootstrap', 'synth', 'deploy', 'diff', 'destroy'].includes(v))).toEqual([]);
  });

  it('every command’s options are ones the app reads, and each synth, deploy or diff synthesises', () => {
    const synthesising = commands.filter((c) => ['synth', 'deploy', 'diff'].includes(c.verb));
    expect(synthesising.length).toBeGreaterThanOrEqual(4);
    for (const { line, context } of commands) {
      for (const key of Object.keys(context)) expect(CONTEXT_KEYS, line).toHaveProperty(key);
    }
    for (const { line, context } of synthesising) {
      const { stack, template } = synthesised(context);
      expect(stack.stackName, line).toBe(`ComplianceApi-${context.stage ?? 'dev'}`);
      if (context.domainName)
        template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: context.domainName });
      if (context.streetWorksTopicArns)
        template.resourceCountIs('AWS::SNS::Subscription', context.streetWorksTopicArns.split(',').length);
    }
  });

  it('documents every option the app reads, in its table', () => {
    for (const key of Object.keys(CONTEXT_KEYS))
      expect(deploying).toMatch(new RegExp(`\\| [^\\n]*\`${key}\``));
  });

  it('an option the app does not read fails the synth, naming the ones it does (the old streetWorksTopicArn)', () => {
    expect(() =>
      stackFromContext({ stage: 'dev', streetWorksTopicArn: 'arn:aws:sns:eu-west-2:111122223333:t' }),
    ).toThrow(/Unknown context "streetWorksTopicArn".*streetWorksTopicArns/);
    expect(() => stackFromContext({ stage: 'test' })).toThrow(/stage must be one of dev, staging, prod/);
    expect(() => stackFromContext({ domainName: 'api.example.com' })).toThrow(/certificateArn/);
    expect(() => stackFromContext({ streetWorksTopicArns: 'arn:aws:sqs:eu-west-2:1:q' })).not.toThrow();
    expect(() => synthesised({ streetWorksTopicArns: 'arn:aws:sqs:eu-west-2:1:q' })).toThrow(
      /Not an SNS topic ARN/,
    );
  });
});

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
const nestedOf = (stack: Stack) =>
  stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack);

/**
 * The TOKEN_ISSUER of every API function, resolved to the parent stack's terms: a nested stack's
 * parameter is replaced by the value its parent passes it.
 */
const issuersOf = (stack: Stack): string[] =>
  nestedOf(stack).flatMap((nested) => {
    const passed = (
      Template.fromStack(stack).toJSON().Resources[
        stack.getLogicalId(nested.nestedStackResource as never)
      ] as {
        Properties: { Parameters?: Record<string, unknown> };
      }
    ).Properties.Parameters;
    const resolve = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(resolve);
      if (value && typeof value === 'object') {
        const ref = (value as { Ref?: string }).Ref;
        if (ref && passed && ref in passed) return passed[ref];
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
      }
      return value;
    };
    const resources = Template.fromStack(nested).toJSON().Resources as Resources;
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((fn) =>
        JSON.stringify(
          resolve(
            (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.TOKEN_ISSUER,
          ),
        ),
      );
  });

describe('a custom domain (issue 20, item 1)', () => {
  it('made in a hosted zone: a DNS-validated certificate, the domain mapped to the API, an alias record; every issuer is https://<domain>', () => {
    const { stack, template } = synthesised({
      stage: 'prod',
      domainName: 'api.example.com',
      hostedZoneId: 'Z0123456789EXAMPLE',
      hostedZoneName: 'example.com',
    });
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: 'api.example.com',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: 'api.example.com', HostedZoneId: 'Z0123456789EXAMPLE' }],
    });
    const [domainId] = Object.keys(
      template.findResources('AWS::ApiGatewayV2::DomainName', {
        Properties: {
          DomainName: 'api.example.com',
          DomainNameConfigurations: [
            Match.objectLike({ EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }),
          ],
        },
      }),
    );
    expect(domainId).toBeDefined();
    const [apiId] = Object.keys(template.findResources('AWS::ApiGatewayV2::Api'));
    // The domain serves the API's stage: the URL the tokens name is one the stack serves.
    template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {
      DomainName: { Ref: domainId },
      ApiId: { Ref: apiId },
    });
    template.hasResourceProperties('AWS::Route53::RecordSet', {
      Name: 'api.example.com.',
      Type: 'A',
      HostedZoneId: 'Z0123456789EXAMPLE',
    });
    const issuers = issuersOf(stack);
    expect(issuers.length).toBeGreaterThan(10);
    expect(new Set(issuers)).toEqual(new Set([JSON.stringify('https://api.example.com')]));
    template.hasOutput('ApiUrl', { Value: 'https://api.example.com' });
  });

  it('with a certificate given: no certificate made, the domain uses it, and the output names the target to point the domain at', () => {
    const arn = 'arn:aws:acm:eu-west-2:111122223333:certificate/0a1b2c3d-1111-2222-3333-444455556666';
    const { template } = synthesised({ domainName: 'api.staging.example.com', certificateArn: arn });
    template.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
    template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api.staging.example.com',
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: arn })],
    });
    template.hasOutput('DomainTarget', { Value: Match.anyValue() });
  });

  it('without one, the issuer of every function is the API’s own URL (the ApiUrl output), and no domain is made', () => {
    const { stack, template } = synthesised({ stage: 'dev' });
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    const [apiId] = Object.keys(template.findResources('AWS::ApiGatewayV2::Api'));
    const output = JSON.stringify(template.toJSON().Outputs.ApiUrl.Value);
    expect(output).toBe(JSON.stringify({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }));
    expect(new Set(issuersOf(stack))).toEqual(new Set([output]));
  });
});

/** The resources `cdk destroy` leaves (DeletionPolicy Retain), parent and nested stacks, by type. */
const retainedOf = (stack: Stack): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const s of [stack, ...nestedOf(stack)]) {
    const resources = Template.fromStack(s).toJSON().Resources as Record<
      string,
      { Type: string; DeletionPolicy?: string }
    >;
    for (const r of Object.values(resources))
      if (r.DeletionPolicy === 'Retain') counts[r.Type] = (counts[r.Type] ?? 0) + 1;
  }
  return counts;
};

describe('data safety (issue 20, item 5)', () => {
  it('the documents and images buckets are versioned, noncurrent documents expire after 90 days, noncurrent images after 30 (variants 1); the expiring buckets are not versioned', () => {
    const { template } = synthesised({ stage: 'prod' });
    const buckets = Object.values(template.findResources('AWS::S3::Bucket')) as {
      Properties: {
        VersioningConfiguration?: { Status: string };
        LifecycleConfiguration?: { Rules: Record<string, unknown>[] };
      };
    }[];
    const versioned = buckets.filter((b) => b.Properties.VersioningConfiguration?.Status === 'Enabled');
    expect(versioned).toHaveLength(2);
    expect(versioned[0]?.Properties.LifecycleConfiguration?.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 90 }, Status: 'Enabled' }),
        expect.objectContaining({ ExpiredObjectDeleteMarker: true }),
      ]),
    );
    expect(versioned[1]?.Properties.LifecycleConfiguration?.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 30 }, Status: 'Enabled' }),
        expect.objectContaining({
          Prefix: 'variants/',
          NoncurrentVersionExpiration: { NoncurrentDays: 1 },
          Status: 'Enabled',
        }),
        expect.objectContaining({ ExpiredObjectDeleteMarker: true }),
      ]),
    );
  });

  it('cdk destroy leaves the data in every stage (table, 5 buckets, 3 KMS keys: the signing key, webhook secrets’ and SSO client secrets’) and the logs in staging and prod only', () => {
    const data = { 'AWS::DynamoDB::Table': 1, 'AWS::S3::Bucket': 5, 'AWS::KMS::Key': 3 };
    const prod = retainedOf(synthesised({ stage: 'prod' }).stack);
    expect(prod).toEqual({ ...data, 'AWS::Logs::LogGroup': expect.any(Number) });
    expect(prod['AWS::Logs::LogGroup']).toBeGreaterThan(20);
    expect(retainedOf(synthesised({ stage: 'dev' }).stack)).toEqual(data);
  });
});

describe('observability (issue 20, item 3)', () => {
  const { stack, template } = synthesised({
    stage: 'prod',
    alarmEmail: 'ops@example.com',
    serverErrorAlarmPercent: '3',
    logRetentionDays: '60',
  });
  const everywhere = [stack, ...nestedOf(stack)].flatMap((s) =>
    Object.entries(Template.fromStack(s).toJSON().Resources as Resources),
  );
  const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic'));
  const alarms = template.findResources('AWS::CloudWatch::Alarm') as Record<
    string,
    {
      Properties: {
        Threshold: number;
        AlarmActions: unknown[];
        OKActions: unknown[];
        MetricName?: string;
        Namespace?: string;
      };
    }
  >;

  it('every function is traced (Lambda active tracing), its logs kept the days the context names', () => {
    const functions = everywhere.filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(20);
    for (const [id, fn] of functions) expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
    const days = everywhere
      .filter(([, r]) => r.Type === 'AWS::Logs::LogGroup')
      .map(([, g]) => g.Properties.RetentionInDays);
    expect(days.filter((d) => d === 60)).toHaveLength(functions.length);
    expect(days.filter((d) => d === 365)).toHaveLength(1);
  });

  it('every alarm notifies the alarms topic when raised and when cleared; the topic e-mails the address the context names', () => {
    expect(topicId).toBeDefined();
    expect(Object.keys(alarms).length).toBeGreaterThan(25);
    for (const [id, alarm] of Object.entries(alarms)) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
    }
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
    template.hasOutput('AlarmsTopic', { Value: { Ref: topicId } });
  });

  it('alarms on the 5xx share at the context’s threshold, on each function’s errors and throttles, on table throttles, dead letters, a consumer behind, and the service’s own metrics', () => {
    const named = (part: string) => Object.entries(alarms).filter(([id]) => id.includes(part));
    expect(named('ApiServerErrorsAlarm').map(([, a]) => a.Properties.Threshold)).toEqual([3]);
    const functions = everywhere.filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    expect(named('FailuresAlarm')).toHaveLength(functions.length);
    for (const part of ['TableThrottlesAlarm', 'EventDeadLettersAlarm', 'EventConsumerBehindAlarm'])
      expect(named(part), part).toHaveLength(1);
    const serviceMetrics = Object.values(alarms)
      .filter((a) => a.Properties.Namespace === 'ComplianceApi')
      .map((a) => a.Properties.MetricName)
      .filter(Boolean)
      .sort();
    expect(serviceMetrics).toEqual([
      'StreetWorksRejected',
      'StreetWorksUnsubscribed',
      'WebhookSubscriptionFailing',
    ]);
  });

  it('one dashboard for the stage', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'ComplianceApi-prod' });
  });

  it('a stage’s defaults apply without options, and bad values are refused', () => {
    const dev = synthesised({ stage: 'dev' }).template;
    dev.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: Match.stringLikeRegexp('More than 5 % of requests'),
      Threshold: 5,
    });
    dev.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(() => stackFromContext({ logRetentionDays: '45' })).toThrow(/logRetentionDays must be one of/);
    expect(() => stackFromContext({ serverErrorAlarmPercent: '0' })).toThrow(/serverErrorAlarmPercent/);
    expect(() => stackFromContext({ alarmEmail: 'not-an-address' })).toThrow(/alarmEmail/);
  });

  it('a token key rotation is named in context: the keys every function trusts and the one that signs, which must be among them', () => {
    expect(
      stackFromContext({ tokenKeys: 'TokenSigningKey,TokenSigningKey2', signingKey: 'TokenSigningKey2' })
        .props.tokenKeys,
    ).toEqual({ keys: ['TokenSigningKey', 'TokenSigningKey2'], signing: 'TokenSigningKey2' });
    expect(stackFromContext({}).props.tokenKeys).toBeUndefined();
    expect(() => stackFromContext({ tokenKeys: 'TokenSigningKey2', signingKey: 'TokenSigningKey' })).toThrow(
      /signingKey must be one of tokenKeys/,
    );
    expect(() => stackFromContext({ signingKey: 'Other' })).toThrow(/signingKey must be one of tokenKeys/);
    expect(() => stackFromContext({ tokenKeys: 'token-key' })).toThrow(/tokenKeys must be construct ids/);
  });
});

describe('fair under load: throttling and the feed’s own capacity (issue 20, item 4)', () => {
  const topic = 'arn:aws:sns:eu-west-2:111122223333:street-works-permits';

  it('every route is throttled at the stage’s default; the street-works receiver’s route at its own limits', () => {
    const { template } = synthesised({ stage: 'prod', streetWorksTopicArns: topic });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
      RouteSettings: {
        // The receiver's gateway route (routed by prefix, any method; the function answers 405 to others).
        'ANY /street-works/protections': { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      },
    });
    synthesised({ throttleRateLimit: '30', throttleBurstLimit: '60' }).template.hasResourceProperties(
      'AWS::ApiGatewayV2::Stage',
      { DefaultRouteSettings: { ThrottlingRateLimit: 30, ThrottlingBurstLimit: 60 } },
    );
    expect(() => stackFromContext({ throttleRateLimit: '-1' })).toThrow(/throttleRateLimit/);
  });

  it('the receiver runs in a function of its own, with concurrency reserved when topics are given, and none else reserved', () => {
    const reserved = (context: Record<string, unknown>) =>
      nestedOf(synthesised(context).stack).flatMap((s) =>
        Object.entries(Template.fromStack(s).findResources('AWS::Lambda::Function'))
          .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
          .map(([id, fn]) => [id.replace(/[0-9A-F]{8}$/, ''), fn.Properties.ReservedConcurrentExecutions]),
      );
    expect(reserved({ stage: 'prod', streetWorksTopicArns: topic })).toEqual([['FnStreetWorksFeed', 10]]);
    expect(reserved({ streetWorksTopicArns: topic, streetWorksReservedConcurrency: '4' })).toEqual([
      ['FnStreetWorksFeed', 4],
    ]);
    expect(reserved({ stage: 'prod' })).toEqual([]);
  });
});

describe('invitation e-mail (issue 21, Invitations)', () => {
  /** Each function's environment and the SES statements of its role, by function logical id. */
  const mailers = (context: Record<string, unknown>) => {
    const { stack, template } = synthesised(context);
    const roles = template.toJSON().Resources as Resources;
    const policies = Object.values(roles)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: { Action: unknown }[] }).Statement)
      .filter((s) => JSON.stringify(s.Action).includes('ses:'));
    const functions = [stack, ...nestedOf(stack)].flatMap((s) =>
      Object.entries(Template.fromStack(s).findResources('AWS::Lambda::Function')).map(([id, fn]) => ({
        id: id.replace(/[0-9A-F]{8}$/, ''),
        env: (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>,
      })),
    );
    return { policies, functions };
  };

  it('only the functions that mail may send (people: invitations; the event consumer and the due-work runner: notifications at once, digests, escalations), only from emailFrom, which they are told', () => {
    const { policies, functions } = mailers({
      emailFrom: 'invites@northmere.example',
      appUrl: 'https://app.northmere.example',
    });
    expect(policies).toHaveLength(3);
    for (const policy of policies) {
      expect(policy).toMatchObject({
        Action: 'ses:SendEmail',
        Condition: { StringEquals: { 'ses:FromAddress': 'invites@northmere.example' } },
      });
      expect(JSON.stringify(policy)).toContain('identity/northmere.example');
    }
    const told = functions.filter((f) => f.env.EMAIL_FROM !== undefined);
    expect(told.map((f) => f.id).sort()).toEqual(['DueWorkRunner', 'FnEventConsumer', 'FnPeople']);
    for (const f of told) expect(f.env.EMAIL_FROM).toBe('invites@northmere.example');
    expect(told.find((f) => f.id === 'FnPeople')?.env).toMatchObject({
      APP_URL: 'https://app.northmere.example',
    });
    // Notification mail links to the API and seals unsubscribe tokens with the cursor key's derivative.
    for (const f of told.filter((f) => f.id !== 'FnPeople'))
      expect(Object.keys(f.env)).toEqual(expect.arrayContaining(['TOKEN_ISSUER', 'CURSOR_KEY_SECRET_ARN']));
  });

  it('a custom domain gives a no-reply sender; a malformed emailFrom or appUrl fails the synth', () => {
    expect(
      stackFromContext({
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:eu-west-2:1:certificate/x',
      }).props.emailFrom,
    ).toBe('no-reply@api.example.com');
    expect(() => stackFromContext({ emailFrom: 'nobody' })).toThrow(/emailFrom/);
    expect(() => stackFromContext({ appUrl: 'http://app.example' })).toThrow(/appUrl/);
  });
});
