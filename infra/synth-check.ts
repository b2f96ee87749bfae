/**
 * `npm run synth:check`, a deploy rehearsal that needs no AWS account (issue 20, item 6). It synthesises
 * every stage, each with and without a custom domain and a street-works topic, with the options going
 * through `infra/context.ts` as `npx cdk` passes them. Each synth runs cdk-nag's AwsSolutions pack (any
 * unacknowledged finding fails it) and the quota checks. It prints each stack's resource, route and
 * integration counts, and exits 1 if any synth or check fails.
 *
 * Bundling is skipped: it builds the same code for every stage, and `npx cdk synth` exercises it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestedStack, Validations } from 'aws-cdk-lib';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { appWith, composeStack } from './compose';
import { STAGES } from './context';
import { QUOTAS } from './quotas';

const VARIANTS: Record<string, Record<string, string>> = {
  plain: {},
  'domain and topic': {
    domainName: 'api.example.com',
    hostedZoneId: 'Z0123456789EXAMPLE',
    hostedZoneName: 'example.com',
    streetWorksTopicArns: 'arn:aws:sns:eu-west-2:111122223333:street-works-permits',
  },
};

export interface CheckRow {
  stage: string;
  variant: string;
  resources: number;
  /** The most resources in one stack (parent or nested): CloudFormation's limit is 500 per stack. */
  largestStack: number;
  stacks: number;
  routes: number;
  integrations: number;
  alarms: number;
  failures: string[];
}

type Template = { Resources: Record<string, { Type: string }> };

/** What a failed synth says: the cdk-nag rules its validation report names, with where; else its message. */
const findingsOf = (message: string): string => {
  const report = message.match(/found in: (\S+validation-report\.json)/)?.[1];
  if (!report) return `synth: ${message.split('\n')[0]}`;
  const { pluginReports } = JSON.parse(readFileSync(report, 'utf8')) as {
    pluginReports: {
      violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[];
    }[];
  };
  const found = pluginReports
    .flatMap((r) => r.violations)
    .map((v) => `${v.ruleName} (${v.violatingConstructs.map((c) => c.constructPath).join(', ')})`);
  return `cdk-nag: ${found.join('; ')}`;
};

/** One stage and variant, synthesised with cdk-nag; its counts, and what failed. */
const check = (stage: string, variant: string): CheckRow => {
  const synthApp = appWith({ stage, ...VARIANTS[variant] }, mkdtempSync(join(tmpdir(), 'synth-check-')));
  const failures: string[] = [];
  const stack = composeStack(synthApp);
  Validations.of(synthApp).addPlugins(new AwsSolutionsChecks(synthApp));
  let assembly: CloudAssembly;
  try {
    assembly = synthApp.synth();
  } catch (error) {
    failures.push(findingsOf((error as Error).message));
    return {
      stage,
      variant,
      resources: 0,
      largestStack: 0,
      stacks: 0,
      routes: 0,
      integrations: 0,
      alarms: 0,
      failures,
    };
  }
  const nested = stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack);
  const templates = [
    assembly.getStackArtifact(stack.artifactId).template as Template,
    ...nested.map(
      (n) => JSON.parse(readFileSync(join(assembly.directory, n.templateFile), 'utf8')) as Template,
    ),
  ];
  const perStack = templates.map((t) => Object.values(t.Resources));
  const all = perStack.flat();
  const count = (type: string) => all.filter((r) => r.Type === type).length;
  const row = {
    stage,
    variant,
    resources: all.length,
    largestStack: Math.max(...perStack.map((r) => r.length)),
    stacks: templates.length,
    routes: count('AWS::ApiGatewayV2::Route'),
    integrations: count('AWS::ApiGatewayV2::Integration'),
    alarms: count('AWS::CloudWatch::Alarm'),
  };
  if (row.largestStack > QUOTAS.resourcesPerStack)
    failures.push(`a stack holds ${row.largestStack} resources (more than ${QUOTAS.resourcesPerStack})`);
  if (row.routes > QUOTAS.routes) failures.push(`${row.routes} gateway routes (more than ${QUOTAS.routes})`);
  if (row.integrations > QUOTAS.integrations)
    failures.push(`${row.integrations} integrations (more than ${QUOTAS.integrations})`);
  return { ...row, failures };
};

/** Every stage and variant, checked. */
export const synthCheck = (): CheckRow[] =>
  STAGES.flatMap((stage) => Object.keys(VARIANTS).map((variant) => check(stage, variant)));

if (process.argv[1]?.endsWith('synth-check.ts')) {
  const rows = synthCheck();
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  console.log(
    [
      line([
        'stage',
        'variant',
        'resources',
        'largest stack',
        'stacks',
        'routes',
        'integrations',
        'alarms',
        'checks',
      ]),
      line(Array(9).fill('---')),
      ...rows.map((r) =>
        line([
          r.stage,
          r.variant,
          r.resources,
          r.largestStack,
          r.stacks,
          r.routes,
          r.integrations,
          r.alarms,
          r.failures.length === 0 ? 'cdk-nag and quotas pass' : r.failures.join('; '),
        ]),
      ),
      '',
      `Quotas: at most ${QUOTAS.resourcesPerStack} resources in a stack (CloudFormation allows 500), ${QUOTAS.routes} gateway routes and ${QUOTAS.integrations} integrations (HTTP API: 300 each).`,
    ].join('\n'),
  );
  if (rows.some((r) => r.failures.length > 0)) process.exitCode = 1;
}
