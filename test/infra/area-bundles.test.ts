/**
 * Every area's function, bundled as `cdk synth` bundles it (esbuild, code-split), loads and answers a
 * request. Tests and `npm start` run the sources through tsx, which evaluates modules in another order
 * than a bundle does: an import cycle through the route table (a declaration importing a module that
 * reads `shared/routes.ts`) passed every API test, yet the site-attendances bundle threw at load
 * ("Cannot read properties of undefined (reading 'endpoints')"), so that function would have failed every
 * request in AWS. An authenticated route asked without credentials must answer 401: authentication is the
 * first thing a request meets, so no database is needed (DynamoDB is a closed port here).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { areas, bundleArea } from '../../infra/area-bundle';
import { bundleEnv } from '../support/bundle-env';

const out = mkdtempSync(join(tmpdir(), 'area-bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const env = { ...bundleEnv, POWERTOOLS_LOG_LEVEL: 'ERROR' };

/** Imports the bundle in a fresh Node process, as a cold start does, and hands it one API Gateway event. */
const answer = (entry: string, method: string, path: string) => {
  const event = {
    version: '2.0',
    rawPath: path,
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { domainName: 'test', requestId: 'test', http: { method, path, sourceIp: '127.0.0.1' } },
  };
  const script = `const { handler } = await import(${JSON.stringify(entry)});
const result = await handler(${JSON.stringify(event)}, { awsRequestId: 'test', getRemainingTimeInMillis: () => 10000 });
process.stdout.write(JSON.stringify({ statusCode: result.statusCode, body: String(result.body).slice(0, 500) }));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(stdout.slice(stdout.lastIndexOf('{"statusCode"'))) as {
    statusCode: number;
    body: string;
  };
};

describe('each area function, bundled as deployed, loads and answers', () => {
  it.each([...areas()])(
    '%s',
    (area, routes) => {
      const dir = join(out, area);
      bundleArea(area, routes, dir);
      const route = routes.find((r) => r.auth.length > 0) ?? routes[0];
      if (!route) throw new Error(`${area} serves no route`);
      const path = route.path.replace(/\{\w+\}/g, '0190a0a0-0000-7000-8000-000000000001');
      const { statusCode, body } = answer(join(dir, 'index.mjs'), route.method, path);
      if (route.auth.length > 0) expect(statusCode, `${route.id}: ${body}`).toBe(401);
      // A public route (the status, the documents, the SNS receiver, the fallback) answers as it does with
      // no database: never a 500.
      else expect(statusCode, `${route.id}: ${body}`).not.toBe(500);
    },
    60_000,
  );
});
