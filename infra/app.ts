/** The CDK app: `npx cdk synth -c stage=dev` (offline), `npx cdk deploy -c stage=dev`. */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ComplianceApiStack, type Stage } from './stack';

const stages: readonly Stage[] = ['dev', 'staging', 'prod'];

const app = new App();
const stage = app.node.tryGetContext('stage') ?? 'dev';
if (!stages.includes(stage))
  throw new Error(`Context stage must be one of ${stages.join(', ')}; got ${stage}.`);
const optional = (key: string): string | undefined => app.node.tryGetContext(key) || undefined;

new ComplianceApiStack(app, `ComplianceApi-${stage}`, {
  stage,
  domainName: optional('domainName'),
  streetWorksTopicArns:
    optional('streetWorksTopicArns')
      ?.split(',')
      .map((arn) => arn.trim()) ?? [],
  streetWorksOrganisations: optional('streetWorksOrganisations') ?? '',
  description: `Compliance and risk management API (${stage})`,
});
// Synthesis fails on any AwsSolutions finding not acknowledged (with its reason) in infra/nag.ts.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
