/**
 * Hot reload (issue 16): how long after a save a changed handler answers. Runs `npm start` in a copy of the
 * sources (the working tree is never edited); then, BENCH_RELOADS times, BENCH_RELOAD_GAP_MS apart (an
 * edit cycle; 3 s by default), rewrites the `GET /v3/status` handler's `api_version` and requests the
 * route at once and again until the answer carries the new value. The handler is loaded before each
 * save, so every answer with the new value comes from a reloaded adapter. Also reports the adapter's own
 * restart time from its "API reloaded in … ms" line (the rest is the handler's first import and answer).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copySources, startLocalStack } from '../support/local-copy';

const RUNS = Number(process.env.BENCH_RELOADS ?? 7);
const GAP_MS = Number(process.env.BENCH_RELOAD_GAP_MS ?? 3000);
const HANDLER = 'functions/status/get-status.ts';
const VERSION = /api_version: '[^']*'/;
const RELOADED = /API reloaded in (\d+) ms/g;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const apiVersion = async (url: string) => {
  try {
    const response = await fetch(`${url}/v3/status`);
    return ((await response.json()) as { meta?: { api_version?: string } }).meta?.api_version;
  } catch {
    return undefined;
  }
};

export const benchReload = async () => {
  const copy = copySources();
  const stack = await startLocalStack(copy.root);
  const file = join(copy.root, HANDLER);
  const original = readFileSync(file, 'utf8');
  if (!VERSION.test(original)) throw new Error(`${HANDLER} no longer sets api_version: update the bench.`);
  const answers: number[] = [];
  const restarts: number[] = [];
  let stale = 0;
  try {
    for (let run = 1; run <= RUNS; run++) {
      await apiVersion(stack.url);
      await new Promise((r) => setTimeout(r, GAP_MS));
      const version = `reload-${run}`;
      writeFileSync(file, original.replace(VERSION, `api_version: '${version}'`));
      const saved = performance.now();
      while ((await apiVersion(stack.url)) !== version) stale++;
      answers.push(performance.now() - saved);
      await stack.printed(RELOADED, run);
      restarts.push(Number([...stack.output().matchAll(RELOADED)].at(-1)?.[1]));
    }
  } finally {
    await stack.interrupt();
    copy.remove();
  }
  const ms = (values: number[]) =>
    `median ${Math.round(median(values))} ms, max ${Math.round(Math.max(...values))} ms`;
  return {
    saves: `${RUNS}, ${GAP_MS} ms apart, each rewriting ${HANDLER}`,
    'save to first answer from the new code': ms(answers),
    'adapter process ready after the save': ms(restarts),
    'each save to answer, ms': answers.map(Math.round).join(', '),
    // Before the watcher has seen the save: from its first event on, requests wait for the new adapter.
    'answers from the old code after a save': `${stale} in all`,
  };
};
