/**
 * The context `npx cdk synth|deploy -c key=value` takes (docs/deploying.md): every key the app reads, and
 * the stack's properties from them. A key the app does not read is refused, so a misspelt option fails
 * the synth instead of being ignored. CDK's own keys (`aws:cdk:…`, lookups such as
 * `availability-zones:…`, feature flags `@aws-cdk/…`) are never an operator's option and pass.
 */
import { STAGE_DEFAULTS, type Stage } from './operations';
import type { ComplianceApiStackProps } from './stack';

export const STAGES: readonly Stage[] = ['dev', 'staging', 'prod'];

/** Each option, and what it does (docs/deploying.md's table of them is checked against this list). */
export const CONTEXT_KEYS = {
  stage: 'dev | staging | prod (default dev): the stack `ComplianceApi-<stage>`',
  domainName: 'a custom domain serving the API; the token issuer becomes https://<domainName>',
  certificateArn: 'an ACM certificate for domainName, in the stack’s region',
  hostedZoneId:
    'the Route 53 hosted zone of domainName: a DNS-validated certificate and an alias record are made in it',
  hostedZoneName: 'that zone’s name (e.g. example.com)',
  streetWorksTopicArns:
    'the national street-works SNS topics, comma-separated; each is subscribed in its own region',
  streetWorksOrganisations: 'routing of street-works references to organisations: prefix=org_id,…',
  alarmEmail: 'an address the alarms topic e-mails (it confirms the subscription first)',
  emailFrom:
    'the sender of invitation e-mails, an address or domain verified in SES in the stack’s region (default no-reply@<domainName>, or none: invitations then cannot be sent)',
  appUrl:
    'the web application invitation e-mails link to (<appUrl>/accept-invitation?token=…); default the API’s URL',
  logRetentionDays: 'days the functions’ log groups keep their logs (default by stage: 14, 30, 90)',
  accessLogRetentionDays: 'days the API’s access log keeps its lines (default by stage: 30, 90, 365)',
  serverErrorAlarmPercent:
    'the share of requests answered 5xx, over 5 minutes, that raises an alarm (default by stage: 5, 2, 1)',
  throttleRateLimit:
    'the stage’s default route throttling, requests per second (default by stage: 50, 200, 1000)',
  throttleBurstLimit: 'the burst above it (default by stage: 100, 400, 2000)',
  streetWorksReservedConcurrency:
    'concurrent executions reserved for the street-works receiver when topics are given (default by stage: 2, 5, 10)',
  requestsPerMinuteOrganisation:
    'requests an organisation may make a minute, all its clients together (default 6000)',
  requestsPerMinuteClient: 'requests one client may make a minute (default 1200)',
  tokenKeys:
    'the KMS keys access tokens may be signed with, by construct id, comma-separated (default TokenSigningKey): every function trusts each; add the next a deploy before it signs',
  signingKey: 'the one of tokenKeys that signs (default the first)',
} as const;

/** The periods CloudWatch Logs can keep a log group's events for (days). */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

export type ContextKey = keyof typeof CONTEXT_KEYS;

const ownedByCdk = (key: string) => key.includes(':') || key.startsWith('@');

/** The stack's id and properties from the app's context; an unknown or malformed option throws. */
export const stackFromContext = (
  context: Record<string, unknown>,
): { id: string; props: ComplianceApiStackProps } => {
  const unknown = Object.keys(context).filter((key) => !ownedByCdk(key) && !(key in CONTEXT_KEYS));
  if (unknown.length > 0)
    throw new Error(
      `Unknown context ${unknown.map((k) => `"${k}"`).join(', ')}: the app reads ${Object.keys(CONTEXT_KEYS).join(', ')}.`,
    );
  const text = (key: ContextKey): string | undefined => {
    const value = context[key];
    return value === undefined || value === '' ? undefined : String(value);
  };
  const stage = (text('stage') ?? 'dev') as Stage;
  if (!STAGES.includes(stage))
    throw new Error(`Context stage must be one of ${STAGES.join(', ')}; got ${stage}.`);
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  const hostedZoneId = text('hostedZoneId');
  const hostedZoneName = text('hostedZoneName');
  if ((certificateArn || hostedZoneId || hostedZoneName) && !domainName)
    throw new Error('Context certificateArn, hostedZoneId and hostedZoneName need domainName.');
  if (domainName && !certificateArn && !hostedZoneId)
    throw new Error(
      `Context domainName needs certificateArn (an ACM certificate for ${domainName}) or hostedZoneId and hostedZoneName (one is made and validated in that zone).`,
    );
  if (Boolean(hostedZoneId) !== Boolean(hostedZoneName))
    throw new Error('Context hostedZoneId and hostedZoneName go together.');
  const days = (key: 'logRetentionDays' | 'accessLogRetentionDays') => {
    const given = text(key);
    if (given === undefined) return STAGE_DEFAULTS[stage][key];
    if (!RETENTION_DAYS.includes(Number(given)))
      throw new Error(`Context ${key} must be one of ${RETENTION_DAYS.join(', ')} (days); got ${given}.`);
    return Number(given);
  };
  const percent = text('serverErrorAlarmPercent');
  if (percent !== undefined && !(Number(percent) > 0 && Number(percent) <= 100))
    throw new Error(
      `Context serverErrorAlarmPercent must be a number above 0 and at most 100; got ${percent}.`,
    );
  const alarmEmail = text('alarmEmail');
  if (alarmEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alarmEmail))
    throw new Error(`Context alarmEmail must be an e-mail address; got ${alarmEmail}.`);
  const emailFrom = text('emailFrom') ?? (domainName && `no-reply@${domainName}`);
  if (emailFrom !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(emailFrom))
    throw new Error(`Context emailFrom must be an e-mail address; got ${emailFrom}.`);
  const appUrl = text('appUrl');
  if (appUrl !== undefined && !/^https:\/\/[^\s/]+(\/\S*)?$/.test(appUrl))
    throw new Error(`Context appUrl must be an https URL; got ${appUrl}.`);
  const tokenKeys = text('tokenKeys')?.split(',');
  if (tokenKeys?.some((id) => !/^[A-Z][A-Za-z0-9]{0,63}$/.test(id)))
    throw new Error(
      `Context tokenKeys must be construct ids (PascalCase), comma-separated; got ${tokenKeys}.`,
    );
  const signingKey = text('signingKey') ?? tokenKeys?.[0];
  if (signingKey !== undefined && !(tokenKeys ?? ['TokenSigningKey']).includes(signingKey))
    throw new Error(`Context signingKey must be one of tokenKeys; got ${signingKey}.`);
  const count = (
    key:
      | 'throttleRateLimit'
      | 'throttleBurstLimit'
      | 'streetWorksReservedConcurrency'
      | 'requestsPerMinuteOrganisation'
      | 'requestsPerMinuteClient',
  ) => {
    const given = text(key);
    if (given === undefined) return STAGE_DEFAULTS[stage][key];
    if (!/^[1-9]\d{0,5}$/.test(given))
      throw new Error(`Context ${key} must be a whole number from 1; got ${given}.`);
    return Number(given);
  };
  return {
    id: `ComplianceApi-${stage}`,
    props: {
      stage,
      operations: {
        logRetentionDays: days('logRetentionDays'),
        accessLogRetentionDays: days('accessLogRetentionDays'),
        serverErrorAlarmPercent:
          percent === undefined ? STAGE_DEFAULTS[stage].serverErrorAlarmPercent : Number(percent),
        ...(alarmEmail && { alarmEmail }),
        throttleRateLimit: count('throttleRateLimit'),
        throttleBurstLimit: count('throttleBurstLimit'),
        streetWorksReservedConcurrency: count('streetWorksReservedConcurrency'),
        requestsPerMinuteOrganisation: count('requestsPerMinuteOrganisation'),
        requestsPerMinuteClient: count('requestsPerMinuteClient'),
      },
      ...(emailFrom && { emailFrom }),
      ...(appUrl && { appUrl }),
      ...(signingKey && { tokenKeys: { keys: tokenKeys ?? ['TokenSigningKey'], signing: signingKey } }),
      ...(domainName && {
        domain: {
          name: domainName,
          ...(certificateArn && { certificateArn }),
          ...(hostedZoneId && hostedZoneName && { hostedZone: { id: hostedZoneId, name: hostedZoneName } }),
        },
      }),
      streetWorksTopicArns:
        text('streetWorksTopicArns')
          ?.split(',')
          .map((arn) => arn.trim())
          .filter(Boolean) ?? [],
      streetWorksOrganisations: text('streetWorksOrganisations') ?? '',
      description: `Compliance and risk management API (${stage})`,
    },
  };
};
