/**
 * The context `npx cdk synth|deploy -c key=value` takes (README, Deploying): every key the app reads, and
 * the stack's properties from them. A key the app does not read is refused, so a misspelt option fails
 * the synth instead of being ignored. CDK's own keys (`aws:cdk:…`, lookups such as
 * `availability-zones:…`, feature flags `@aws-cdk/…`) are never an operator's option and pass.
 */
import type { ComplianceApiStackProps, Stage } from './stack';

export const STAGES: readonly Stage[] = ['dev', 'staging', 'prod'];

/** Each option, and what it does (the README's table of them is checked against this list). */
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
} as const;

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
  return {
    id: `ComplianceApi-${stage}`,
    props: {
      stage,
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
