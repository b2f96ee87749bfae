/** The CDK app: `npx cdk synth -c stage=dev` (offline), `npx cdk deploy -c stage=dev`; options: context.ts. */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { composeStack } from './compose';

const app = new App();
composeStack(app);
// Synthesis fails on any AwsSolutions finding not acknowledged (with its reason) in infra/nag.ts.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
