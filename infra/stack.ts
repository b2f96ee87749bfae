/**
 * The service: one table, three buckets, the token-signing KMS key, and an HTTP API with one function per
 * area (plus the `$default` fallback), each granted only what its routes' `access` names together;
 * webhook delivery's secrets key (`constructs/webhook-delivery.ts`), the job worker (`constructs/jobs.ts`)
 * and the one every-minute runner of work due later (`constructs/due-work.ts`).
 */
import {
  CfnOutput,
  Duration,
  NestedStack,
  RemovalPolicies,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import {
  type CfnStage,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { ComparisonOperator } from 'aws-cdk-lib/aws-cloudwatch';
import { type IRole, ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { BackoffFunction, Subscription, SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EVENT_PARTITION_PREFIX } from '#shared/data/events';
import { pagesCollection } from '#shared/http/route';
import { fallbackRoute, type RouteAccess, routes } from '#shared/routes';
import { areas } from './area-bundle';
import { AreaFunction, WorkerFunction } from './constructs/area-function';
import { DataStore } from './constructs/data-store';
import { DueWork } from './constructs/due-work';
import { ImageWorker } from './constructs/image-worker';
import { Jobs } from './constructs/jobs';
import { Migrations } from './constructs/migrations';
import { Monitoring } from './constructs/monitoring';
import { FIRST_TOKEN_KEYS, TokenKeys } from './constructs/token-keys';
import { WebhookDelivery } from './constructs/webhook-delivery';
import { gatewayRoutes } from './gateway-routes';
import { acknowledgeNagFindings } from './nag';
import { type Operations, STAGE_DEFAULTS, STREET_WORKS_THROTTLE, type Stage } from './operations';
import { bundleConsumers } from './worker-bundles';

export type { Stage } from './operations';

export interface CustomDomain {
  name: string;
  certificateArn?: string;
  hostedZone?: { id: string; name: string };
}

/** The region of an SNS topic's ARN (`arn:<partition>:sns:<region>:<account>:<name>`). */
export const topicRegion = (arn: string): string => {
  const [prefix, , service, region, account, name, ...rest] = arn.split(':');
  if (prefix !== 'arn' || service !== 'sns' || !region || !account || !name || rest.length > 0)
    throw new Error(`Not an SNS topic ARN: ${arn}`);
  return region;
};
export interface ComplianceApiStackProps extends StackProps {
  stage: Stage;
  /** Log retention, alarm thresholds and whom alarms tell. @default the stage's (operations.ts) */
  operations?: Operations;
  /**
   * A custom domain serving the API (its https URL becomes the token issuer; links and the OpenAPI servers
   * follow the host a request came to), with its ACM certificate, or a hosted zone to make and validate
   * one in and to alias the domain from. @default the API's own URL, and no domain
   */
  domain?: CustomDomain;
  /** The national street-works SNS topics whose messages the receiver accepts; each is subscribed (HTTPS). */
  streetWorksTopicArns?: readonly string[];
  /** Routing of street-works references to organisations: `prefix=org_id,…` (longest prefix wins). */
  streetWorksOrganisations?: string;
  /**
   * The sender of invitation e-mails: an SES-verified identity (the address, or its domain) in the stack's
   * region; the functions that send may send from it alone. @default none: sending is refused by SES
   */
  emailFrom?: string;
  /** The web application invitation e-mails link to. @default the API's URL */
  appUrl?: string;
  /** The token keys and the one that signs (infra/constructs/token-keys.ts: rotating). @default one key */
  tokenKeys?: { keys: readonly string[]; signing: string };
}

/** `street-works` → `StreetWorks`, for logical ids. */
const pascal = (name: string) => name.replace(/(^|-)(\w)/g, (_, _dash: string, c: string) => c.toUpperCase());
/** The construct id of an area's function. */
export const areaFunctionId = (area: string) => `Fn${pascal(area)}`;

type Level = 'read' | 'write';
const wider = (a: Level | undefined, b: Level | undefined): Level | undefined =>
  a === 'write' || b === 'write' ? 'write' : (a ?? b);

/** What an area's routes may touch, together: its function's grants. */
const unionOf = (accesses: readonly RouteAccess[]): RouteAccess => {
  const union: RouteAccess = {};
  for (const access of accesses) {
    const table = wider(union.table, access.table);
    if (table) union.table = table;
    for (const bucket of ['deviceBackups', 'exports', 'documents', 'images'] as const) {
      const level = wider(union.buckets?.[bucket], access.buckets?.[bucket]);
      if (level) union.buckets = { ...union.buckets, [bucket]: level };
    }
    if (access.signing) union.signing = true;
    if (access.sns) union.sns = access.sns;
    if (access.webhookSecrets) union.webhookSecrets = access.webhookSecrets;
    if (access.ssoClientSecrets) {
      // One role per area: an area that both set and used secrets would need both grants; none does.
      if (union.ssoClientSecrets && union.ssoClientSecrets !== access.ssoClientSecrets)
        throw new Error('An area both encrypts and decrypts SSO client secrets');
      union.ssoClientSecrets = access.ssoClientSecrets;
    }
    if (access.cursors) union.cursors = true;
    if (access.email) union.email = true;
  }
  return union;
};

/**
 * The API's custom domain (regional, TLS 1.2): its certificate given, or made in the hosted zone and
 * validated there by DNS, the zone then aliasing the domain to the API.
 */
const customDomain = (scope: Construct, { name, certificateArn, hostedZone }: CustomDomain): DomainName => {
  const zone =
    hostedZone &&
    HostedZone.fromHostedZoneAttributes(scope, 'HostedZone', {
      hostedZoneId: hostedZone.id,
      zoneName: hostedZone.name,
    });
  const certificate = certificateArn
    ? Certificate.fromCertificateArn(scope, 'DomainCertificate', certificateArn)
    : new Certificate(scope, 'DomainCertificate', {
        domainName: name,
        validation: CertificateValidation.fromDns(zone),
      });
  const domain = new DomainName(scope, 'Domain', {
    domainName: name,
    certificate,
    securityPolicy: SecurityPolicy.TLS_1_2,
  });
  if (zone)
    new ARecord(scope, 'DomainAlias', {
      zone,
      recordName: name,
      target: RecordTarget.fromAlias(
        new ApiGatewayv2DomainProperties(domain.regionalDomainName, domain.regionalHostedZoneId),
      ),
    });
  return domain;
};

export class ComplianceApiStack extends Stack {
  constructor(scope: Construct, id: string, props: ComplianceApiStackProps) {
    super(scope, id, props);
    const data = new DataStore(this, 'Data', { deletionProtection: props.stage === 'prod' });
    // Seals collection cursors (HMAC-SHA256, shared/jsonapi/cursor.ts): read once per container. Replacing
    // its value only makes cursors already handed out fail with a 400, so no rotation schedule is kept.
    const cursorKey = new Secret(this, 'CursorKey', {
      description: 'Keys the HMAC that seals collection cursors (page[cursor]).',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });
    // The functions that serve no route (the due-work runner, the event consumer) read only these.
    const operations = props.operations ?? STAGE_DEFAULTS[props.stage];
    const logRetention = operations.logRetentionDays as RetentionDays;
    const workerEnvironment = { STAGE: props.stage, TABLE_NAME: data.table.tableName };
    const tokenKeys = new TokenKeys(this, 'TokenKeys', {
      ...(props.tokenKeys ?? FIRST_TOKEN_KEYS),
      logRetention,
    });
    const signingKey = tokenKeys.signingKey;
    const webhooks = new WebhookDelivery(this, 'Webhooks');
    // SSO providers' client secrets (shared/data/sso-client-secrets.ts): IAM's routes encrypt a new one,
    // only the sign-in's callback decrypts. A key of its own, so neither grant reaches webhook secrets.
    const ssoClientSecretsKey = new Key(this, 'SsoClientSecretsKey', {
      description: "Encrypts SSO providers' client secrets at rest (the callback authenticates with them).",
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const jobs = new Jobs(this, 'Jobs', {
      table: data.table,
      files: data.exports,
      environment: workerEnvironment,
      logRetention,
    });
    // Images (issue 44): the worker that reads an original and writes its variants, invoked by the consumer.
    const imageWorker = new ImageWorker(this, 'ImageWorker', {
      table: data.table,
      images: data.images,
      environment: workerEnvironment,
      logRetention,
    });
    const domain = props.domain && customDomain(this, props.domain);
    const api = new HttpApi(this, 'Api', {
      description: `Compliance and risk API (${props.stage})`,
      ...(domain && { defaultDomainMapping: { domainName: domain } }),
    });
    // Access logs: one JSON line per request, with the request id every answer carries (X-Request-ID).
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: operations.accessLogRetentionDays as RetentionDays,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const stage = api.defaultStage?.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        time: '$context.requestTime',
        method: '$context.httpMethod',
        route: '$context.routeKey',
        status: '$context.status',
        latency: '$context.responseLatency',
        integrationLatency: '$context.integrationLatency',
      }),
    };
    // Fair under load: every route throttled at the stage's default; the street-works receiver at its
    // own, so a burst on the API's routes never refuses the national feed.
    const receiver = routes.find((r) => r.id === 'receiveStreetWorksProtection');
    const gateway = gatewayRoutes(routes);
    stage.defaultRouteSettings = {
      throttlingRateLimit: operations.throttleRateLimit,
      throttlingBurstLimit: operations.throttleBurstLimit,
    };
    stage.routeSettings = Object.fromEntries(
      gateway
        .filter((g) => g.area === receiver?.area)
        .map((g) => [
          `${g.method} ${g.path}`,
          // A JSON map CDK passes as written: CloudFormation's own member names.
          {
            ThrottlingRateLimit: STREET_WORKS_THROTTLE.rateLimit,
            ThrottlingBurstLimit: STREET_WORKS_THROTTLE.burstLimit,
          },
        ]),
    );
    acknowledgeNagFindings(this, data, jobs.worker, imageWorker.worker);
    const monitoring = new Monitoring(this, 'Monitoring', {
      stage: props.stage,
      operations,
      api,
      table: data.table,
    });
    const issuer = props.domain ? `https://${props.domain.name}` : (api.apiEndpoint as string);

    // Mail only from the configured sender's SES identities (the address, and its domain).
    const grantSendEmail = (role: IRole) => {
      if (!props.emailFrom) return;
      const domain = props.emailFrom.split('@')[1] ?? props.emailFrom;
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [props.emailFrom, domain].map((identity) =>
            this.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
          ),
          conditions: { StringEquals: { 'ses:FromAddress': props.emailFrom } },
        }),
      );
    };
    // One role per distinct access profile: routes that may touch the same things share it, which keeps
    // each function at exactly its route's privileges and the stack far below 500 resources.
    const roles = new Map<string, Role>();
    const topicArns = props.streetWorksTopicArns ?? [];
    const roleFor = ({
      table,
      buckets,
      signing,
      sns,
      webhookSecrets,
      ssoClientSecrets,
      cursors,
      email,
    }: RouteAccess): Role => {
      const profile = JSON.stringify({
        table,
        buckets,
        signing,
        sns,
        webhookSecrets,
        ssoClientSecrets,
        cursors,
        email,
      });
      const existing = roles.get(profile);
      if (existing) return existing;
      const role = new Role(this, `Role${roles.size}`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `API functions with access ${profile}`,
        managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      });
      // Every function whose routes authenticate (which reads the table) keeps request budgets
      // (shared/http/middlewares/request-budget.ts): it may add to budget items, nothing else beyond its access.
      if (table)
        role.addToPolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [data.table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['BUDGET#*'] } },
          }),
        );
      if (table === 'read') data.table.grantReadData(role);
      if (table === 'write') data.table.grantReadWriteData(role);
      if (buckets?.deviceBackups === 'read') data.deviceBackups.grantRead(role);
      if (buckets?.deviceBackups === 'write') data.deviceBackups.grantReadWrite(role);
      if (buckets?.exports === 'read') data.exports.grantRead(role);
      if (buckets?.exports === 'write') data.exports.grantReadWrite(role);
      if (buckets?.documents === 'read') data.documents.grantRead(role);
      if (buckets?.documents === 'write') data.documents.grantReadWrite(role);
      if (buckets?.images === 'read') data.images.grantRead(role);
      if (buckets?.images === 'write') data.images.grantReadWrite(role);
      if (signing) {
        role.addToPolicy(
          new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [signingKey.keyArn] }),
        );
      }
      if (sns === 'confirm' && topicArns.length > 0) {
        role.addToPolicy(
          new PolicyStatement({ actions: ['sns:ConfirmSubscription'], resources: [...topicArns] }),
        );
      }
      if (webhookSecrets === 'encrypt') {
        role.addToPolicy(
          new PolicyStatement({ actions: ['kms:Encrypt'], resources: [webhooks.secretsKey.keyArn] }),
        );
      }
      if (ssoClientSecrets) {
        const action = ssoClientSecrets === 'encrypt' ? 'kms:Encrypt' : 'kms:Decrypt';
        role.addToPolicy(new PolicyStatement({ actions: [action], resources: [ssoClientSecretsKey.keyArn] }));
      }
      if (cursors) cursorKey.grantRead(role);
      // Mail only from the configured sender's SES identities (the address, and its domain).
      if (email) grantSendEmail(role);
      roles.set(profile, role);
      return role;
    };

    // Each area gets a nested stack for its function, log group, integration and gateway routes, so the
    // service grows past CloudFormation's 500-resource limit per stack.
    const nestedStacks = new Map<string, NestedStack>();
    const nestedStackOf = (area: string) => {
      const nested = new NestedStack(this, `Area${pascal(area)}`, { description: `API function: ${area}` });
      nestedStacks.set(area, nested);
      return nested;
    };

    // One function per area, granted the union of its routes' access; the gateway sends it its prefixes.
    for (const [area, areaRoutes] of areas()) {
      const nested = nestedStackOf(area);
      const access = unionOf(
        areaRoutes.map((r) => (pagesCollection(r) ? { ...r.access, cursors: true as const } : r.access)),
      );
      const fn = new AreaFunction(nested, areaFunctionId(area), {
        area,
        routes: areaRoutes,
        description: `API area ${area}: ${areaRoutes.length} routes`,
        role: roleFor(access),
        logRetention,
        ...(area === receiver?.area &&
          topicArns.length > 0 && {
            reservedConcurrentExecutions: operations.streetWorksReservedConcurrency,
          }),
        environment: {
          STAGE: props.stage,
          TABLE_NAME: data.table.tableName,
          DEVICE_BACKUPS_BUCKET: data.deviceBackups.bucketName,
          EXPORTS_BUCKET: data.exports.bucketName,
          DOCUMENTS_BUCKET: data.documents.bucketName,
          IMAGES_BUCKET: data.images.bucketName,
          TOKEN_ISSUER: issuer,
          TOKEN_AUDIENCE: `compliance-api:${props.stage}`,
          TOKEN_VERIFICATION_KEYS: tokenKeys.verificationKeys,
          REQUESTS_PER_MINUTE_ORGANISATION: String(operations.requestsPerMinuteOrganisation),
          REQUESTS_PER_MINUTE_CLIENT: String(operations.requestsPerMinuteClient),
          ...(access.signing && { SIGNING_KEY_ID: signingKey.keyArn }),
          ...(access.webhookSecrets && { WEBHOOK_SECRETS_KEY_ID: webhooks.secretsKey.keyArn }),
          ...(access.ssoClientSecrets && { SSO_CLIENT_SECRETS_KEY_ID: ssoClientSecretsKey.keyArn }),
          ...(access.cursors && { CURSOR_KEY_SECRET_ARN: cursorKey.secretArn }),
          ...(access.email && {
            APP_URL: props.appUrl ?? issuer,
            ...(props.emailFrom && { EMAIL_FROM: props.emailFrom }),
          }),
          ...(access.sns && {
            SNS_TOPIC_ARNS: topicArns.join(','),
            STREET_WORKS_ORGANISATIONS: props.streetWorksOrganisations ?? '',
          }),
        },
      });
      const integration = new HttpLambdaIntegration(`${areaFunctionId(area)}Integration`, fn);
      // `$default` takes every request no gateway route matches: JSON:API 404/405 from the fallback.
      const keys =
        area === fallbackRoute.area
          ? [HttpRouteKey.DEFAULT]
          : gateway
              .filter((g) => g.area === area)
              .map((g) => HttpRouteKey.with(g.path, HttpMethod[g.method]));
      for (const routeKey of keys) {
        new HttpRoute(nested, `Route ${routeKey.key.replaceAll('/', '-')}`, {
          httpApi: api,
          routeKey,
          integration,
        });
      }
    }

    // The street-works topics deliver to the receiver over HTTPS, retrying with exponential backoff for
    // about an hour (the receiver's replay window); an unsubscription raises an alarm. Each subscription
    // is made in its topic's region (SNS refuses another's), once the receiver's stack, which holds its
    // function and gateway route, is in place: SNS confirms a subscription as soon as it is made.
    const receiverStack = receiver && nestedStacks.get(receiver.area);
    topicArns.forEach((arn, i) => {
      const subscription = new Subscription(this, `StreetWorksSubscription${i}`, {
        topic: Topic.fromTopicArn(this, `StreetWorksTopic${i}`, arn),
        endpoint: `${api.apiEndpoint}${receiver?.path}`,
        protocol: SubscriptionProtocol.HTTPS,
        region: topicRegion(arn),
        deliveryPolicy: {
          healthyRetryPolicy: {
            numRetries: 30,
            numNoDelayRetries: 2,
            minDelayTarget: Duration.seconds(5),
            maxDelayTarget: Duration.seconds(300),
            numMaxDelayRetries: 8,
            backoffFunction: BackoffFunction.EXPONENTIAL,
          },
        },
      });
      if (receiverStack) subscription.node.addDependency(receiverStack);
    });

    // Events (issue 18): the table's stream → the event consumer. Only new event items reach it (the
    // mapping's filter, so other writes cost no invocation), in order per organisation (one partition
    // key); a batch stops at its first failure and is retried from there, halved on error to isolate a
    // record that keeps failing, for up to 24 hours; then the record's position goes to a dead-letter
    // queue, which alarms, as does a consumer falling behind.
    // Its own role: the stream grants the mapping adds stay off the API functions' roles.
    const consumerRole = new Role(this, 'EventConsumerRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'The event consumer: the table and its stream, and the dead-letter queue',
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    // Delivering webhooks: the table, and decrypting their signing secrets.
    webhooks.grantDelivery(consumerRole, data.table);
    // Keeping the audit log: a subject's audit state read, its entry written (the same statement as the
    // webhooks' table grant, which the synthesised policy holds once; granted here so neither relies on
    // the other).
    data.table.grantReadWriteData(consumerRole);
    // Notifications by e-mail, at once (the consumer) and later (digests, escalations: the due-work
    // runner): SES, and the cursor key their one-click unsubscribe tokens' seal derives from; the sender
    // and the API's address (links, unsubscribe) to write them.
    const grantMail = (role: IRole) => {
      grantSendEmail(role);
      cursorKey.grantRead(role);
    };
    const mailEnvironment = {
      TOKEN_ISSUER: issuer,
      CURSOR_KEY_SECRET_ARN: cursorKey.secretArn,
      ...(props.emailFrom && { EMAIL_FROM: props.emailFrom }),
    };
    grantMail(consumerRole);
    new DueWork(this, 'DueWork', {
      table: data.table,
      webhooks,
      jobs,
      environment: { ...workerEnvironment, ...mailEnvironment },
      grantMail,
      logRetention,
    });
    const consumer = new WorkerFunction(this, 'FnEventConsumer', {
      entry: 'functions/events/consume.ts',
      build: bundleConsumers,
      description: 'Hands each new event to its consumers',
      role: consumerRole,
      logRetention,
      timeout: Duration.minutes(1),
      environment: {
        ...workerEnvironment,
        WEBHOOK_SECRETS_KEY_ID: webhooks.secretsKey.keyArn,
        JOB_WORKER_FUNCTION: jobs.worker.functionName,
        IMAGE_WORKER_FUNCTION: imageWorker.worker.functionName,
        ...mailEnvironment,
      },
    });
    // Starting the worker of each job created, and of each image uploaded.
    jobs.grantStart(consumerRole);
    imageWorker.grantStart(consumerRole);
    const deadLetters = new Queue(this, 'EventDeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    consumer.addEventSource(
      new DynamoEventSource(data.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(deadLetters),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(EVENT_PARTITION_PREFIX) } } },
          }),
        ],
      }),
    );
    monitoring.alarm('EventDeadLettersAlarm', {
      alarmDescription:
        'Events the consumer failed on for 24 hours: their audit entries were not written, their webhooks not delivered.',
      metric: deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
    });
    monitoring.alarm('EventConsumerBehindAlarm', {
      alarmDescription: 'The event consumer is more than 5 minutes behind the table.',
      metric: consumer.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(5) }),
      threshold: Duration.minutes(5).toMilliseconds(),
      evaluationPeriods: 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });

    const migrations = new Migrations(this, 'Migrations', {
      table: data.table,
      environment: workerEnvironment,
      logRetention,
    });
    monitoring.watchFunctions(
      this.node.findAll().filter((c) => c instanceof AreaFunction || c instanceof WorkerFunction),
    );
    // A post-deploy step: the runner goes once everything else is in place (docs/deploying.md).
    for (const other of this.node.children)
      if (other !== migrations) migrations.afterDeploy.node.addDependency(other);

    // What `cdk destroy` leaves (docs/deploying.md): the data (table, buckets, keys) in every stage; the
    // logs in staging and prod. A dev stack's log groups go with it.
    if (props.stage === 'dev')
      RemovalPolicies.of(this).destroy({ applyToResourceTypes: ['AWS::Logs::LogGroup'] });

    new CfnOutput(this, 'AlarmsTopic', {
      value: monitoring.topic.topicArn,
      description: 'Every alarm notifies this topic: subscribe whoever is paged',
    });
    new CfnOutput(this, 'ApiUrl', {
      value: props.domain ? issuer : api.apiEndpoint,
      description: '{base_url} and {auth_url}',
    });
    if (domain && !props.domain?.hostedZone)
      new CfnOutput(this, 'DomainTarget', {
        value: domain.regionalDomainName,
        description: `Point ${props.domain?.name} here (a CNAME, or an alias to this name in zone ${domain.regionalHostedZoneId})`,
      });
  }
}
