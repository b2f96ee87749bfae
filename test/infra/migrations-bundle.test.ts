/**
 * The migration runner, bundled as `cdk synth` bundles it (its entry generated from the areas'
 * migrations), loads in a fresh process, as a cold start does, and finds every migration's step: each
 * names its module and export as strings (`shared/engine/migration-declarations.ts`), so a misnamed one
 * would pass under tsx and fail the deploy in AWS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrations } from '#shared/routes';
import { bundleMigrations } from '../../infra/worker-bundles';

const out = mkdtempSync(join(tmpdir(), 'migrations-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('the runner’s bundle loads and holds the step of every migration the areas declare', () => {
  bundleMigrations(out);
  const names = migrations.map((m) => m.name);
  const script = `const { handler, stepOf } = await import(${JSON.stringify(join(out, 'index.mjs'))});
const steps = {};
for (const name of ${JSON.stringify(names)}) steps[name] = typeof (await stepOf(name))?.migrate;
process.stdout.write(JSON.stringify({ handler: typeof handler, steps }));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', STAGE: 'dev', TABLE_NAME: 'table', NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(JSON.parse(stdout.slice(stdout.lastIndexOf('{"handler"')))).toEqual({
    handler: 'function',
    steps: Object.fromEntries(names.map((name) => [name, 'function'])),
  });
}, 120_000);
