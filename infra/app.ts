/** The CDK app: `npx cdk synth -c stage=dev` (offline), `npx cdk deploy -c stage=dev`; options: context.ts. */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackFromContext } from './context';
import { ComplianceApiStack } from './stack';

const app = new App();
const { id, props } = stackFromContext(app.node.getAllContext());
new ComplianceApiStack(app, id, props);
// Synthesis fails on any AwsSolutions finding not acknowledged (with its reason) in infra/nag.ts.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
