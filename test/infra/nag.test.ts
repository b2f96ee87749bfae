/**
 * cdk-nag's AwsSolutions rule pack over the whole synthesised stack (nested stacks included): zero
 * unacknowledged errors. Acknowledgements live in infra/nag.ts, each with its reason.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { ComplianceApiStack } from '../../infra/stack';

const synthWithNag = (props: ConstructorParameters<typeof ComplianceApiStack>[2]) => {
  const app = new App({
    outdir: mkdtempSync(join(tmpdir(), 'nag-')),
    context: { 'aws:cdk:bundling-stacks': [] },
  });
  new ComplianceApiStack(app, 'Nagged', props);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return () => app.synth();
};

describe('cdk-nag AwsSolutions', () => {
  it('the production stack, with a street-works topic, has no unacknowledged errors', () => {
    expect(
      synthWithNag({ stage: 'prod', streetWorksTopicArns: ['arn:aws:sns:eu-west-2:111122223333:works'] }),
    ).not.toThrow();
  });

  it('a dev stack without topics has none either', () => {
    expect(synthWithNag({ stage: 'dev' })).not.toThrow();
  });
});
