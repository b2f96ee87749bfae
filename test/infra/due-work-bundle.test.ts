/**
 * The due-work runner, bundled as `cdk synth` bundles it (its entry generated from the areas' kinds,
 * code-split), loads in a fresh process, as a cold start does, and finds every kind's work: each kind
 * names its module and export as strings (`shared/engine/due-work-kind.ts`), so a kind whose module or
 * export is misnamed would pass under tsx only if a test ran it, and would fail every run in AWS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { dueWorkKinds } from '#shared/routes';
import { bundleDueWork } from '../../infra/worker-bundles';

const out = mkdtempSync(join(tmpdir(), 'due-work-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('the runner’s bundle loads and holds the work of every kind the areas declare', () => {
  bundleDueWork(out);
  const names = dueWorkKinds.map((kind) => kind.name);
  const script = `const { handler, workOf } = await import(${JSON.stringify(join(out, 'index.mjs'))});
const kinds = {};
for (const name of ${JSON.stringify(names)}) kinds[name] = typeof (await workOf(name));
process.stdout.write(JSON.stringify({ handler: typeof handler, kinds }));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', STAGE: 'dev', TABLE_NAME: 'table', NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(JSON.parse(stdout.slice(stdout.lastIndexOf('{"handler"')))).toEqual({
    handler: 'function',
    kinds: Object.fromEntries(names.map((name) => [name, 'function'])),
  });
}, 120_000);
