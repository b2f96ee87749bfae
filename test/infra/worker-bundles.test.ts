/**
 * The stream's event consumer and the job worker, bundled as `cdk synth` bundles them (their entries
 * generated from the manifests' consumers and job kinds), load in a fresh process, as a cold start does,
 * and find every consumer's handler and every kind's work: each is named by module and export as strings,
 * so a misnamed one would pass under tsx only if a test ran it, and fail in AWS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { eventConsumers, jobKinds } from '#shared/routes';
import { bundleConsumers, bundleJobWorker } from '../../infra/worker-bundles';
import { bundleEnv } from '../support/bundle-env';

const out = mkdtempSync(join(tmpdir(), 'worker-bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** What each name's export is, in the bundle loaded by a fresh Node process. */
const loadedTypes = (entry: string, names: readonly string[]) => {
  const script = `const { handler, loadedOf } = await import(${JSON.stringify(entry)});
const loaded = {};
for (const name of ${JSON.stringify(names)}) loaded[name] = typeof (await loadedOf(name));
process.stdout.write(JSON.stringify({ handler: typeof handler, loaded }));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...bundleEnv, NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(stdout.slice(stdout.lastIndexOf('{"handler"')));
};

it('the event consumer’s bundle loads and holds the handler of every consumer the areas declare', () => {
  bundleConsumers(join(out, 'consume'));
  const names = eventConsumers.map((c) => c.name);
  expect(loadedTypes(join(out, 'consume', 'index.mjs'), names)).toEqual({
    handler: 'function',
    loaded: Object.fromEntries(names.map((name) => [name, 'function'])),
  });
}, 120_000);

it('the job worker’s bundle loads and holds the work of every job kind the areas declare', () => {
  bundleJobWorker(join(out, 'work'));
  const names = jobKinds.map((k) => k.name);
  expect(loadedTypes(join(out, 'work', 'index.mjs'), names)).toEqual({
    handler: 'function',
    loaded: Object.fromEntries(names.map((name) => [name, 'object'])),
  });
}, 120_000);
