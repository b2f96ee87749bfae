/**
 * The app's stack from its context, as `npx cdk` runs it (infra/app.ts) and as the offline rehearsal
 * (synth-check.ts) and the deploy tests make it: cdk.json's context under what a command passes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { stackFromContext } from './context';
import { REPOSITORY_ROOT } from './repository';
import { ComplianceApiStack } from './stack';

/** The service's stack in `app`, from the app's whole context (an unknown option throws). */
export const composeStack = (app: App): ComplianceApiStack => {
  const { id, props } = stackFromContext(app.node.getAllContext());
  return new ComplianceApiStack(app, id, props);
};

/** An app with a command's options over cdk.json's, bundling skipped (its code is the same in every stage). */
export const appWith = (options: Record<string, unknown>, outdir?: string): App => {
  const { context } = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return new App({
    ...(outdir && { outdir }),
    context: { ...context, ...options, 'aws:cdk:bundling-stacks': [] },
  });
};
