/**
 * A check run by hand (`npx tsx test/bench/seed-routes.check.ts`), not by `npm test` or `npm run bench`:
 * starts DynamoDB Local and s3rver as `npm run bench` does, loads the demo data, runs `seedRoutes`, then
 * reads every path it returned, without and with each include the route declares (at page sizes 1, 25
 * and 100), and prints a Markdown table: the records each collection holds and what each include returns.
 * `SEED_CHECK_BASELINE=1` prints the same table for the demo data alone (seeding skipped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localDynamoDbClient } from '../../infra/local/clients';
import { startDynamoDbLocal, startS3rver } from '../../infra/local/engines';
import { createTable } from '../../infra/local/provision';
import { seedEnvironment } from './seed-environment';

const TABLE = 'seed-check';

interface Answer {
  data?: unknown[];
  included?: { type: string }[];
  meta?: {
    pagination?: { counts?: { resources?: number } };
    features?: { params?: { include?: { options?: string[] } } };
  };
  errors?: unknown[];
}

const main = async () => {
  const keys = mkdtempSync(join(tmpdir(), 'seed-check-'));
  const [dynamo, s3] = await Promise.all([startDynamoDbLocal(), startS3rver()]);
  try {
    // As `npm run bench` sets it, and what seeding needs besides (seed-environment.ts).
    const { apiPort: port, env } = await seedEnvironment(keys, s3.endpoint);
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: TABLE,
      LOG_LEVEL: 'warn',
      STAGE: 'bench',
      ...env,
    });
    await createTable(localDynamoDbClient(dynamo.endpoint, TABLE), TABLE);
    const { loadDemoData } = await import('../../infra/local/demo-data');
    const { startLocalApi } = await import('../../infra/local/http-adapter');
    const { routes } = await import('#shared/routes');
    const { seedRoutes } = await import('./seed-routes');
    const { dynamodb } = await import('#shared/data/clients');
    // DynamoDB calls made in this process while seeding (the API's and the event consumer's; the job
    // workers run in processes of their own).
    let calls = 0;
    dynamodb.middlewareStack.add(
      (next) => (args) => {
        calls++;
        return next(args);
      },
      { step: 'initialize' },
    );

    const demo = await loadDemoData();
    const org = demo.organisations[0];
    if (!org?.user) throw new Error('demo data has no session user');
    const { server, url } = await startLocalApi(port);
    try {
      const token = org.user.session_token;
      calls = 0;
      const started = performance.now();
      const seeded = process.env.SEED_CHECK_BASELINE
        ? routes
            .filter((r) => r.method === 'GET' && (r.declared?.operation === 'list' || r.answers?.collection))
            .map((r) =>
              /\{(?!org_id\})/.test(r.path)
                ? { route: r.id, skipped: 'baseline: a path parameter other than {org_id}' }
                : { route: r.id, path: r.path.replace('{org_id}', org.id), records: 0 },
            )
        : await seedRoutes({ url, token, orgId: org.id });
      const seconds = (performance.now() - started) / 1000;
      const seedingCalls = calls;
      const get = async (path: string) => {
        const res = await fetch(`${url}${path}`, { headers: { 'x-session-token': token } });
        return { status: res.status, body: (await res.json()) as Answer };
      };
      const lines = [
        '| route | records (seeder) | records (read) | include: resources included at page[limit]=1/25/100 |',
        '|---|---|---|---|',
      ];
      const short: string[] = [];
      for (const s of seeded) {
        if ('skipped' in s) {
          lines.push(`| ${s.route} | skipped: ${s.skipped} | | |`);
          continue;
        }
        const join = s.path.includes('?') ? '&' : '?';
        const page = await get(`${s.path}${join}page[limit]=100`);
        if (page.status !== 200) {
          lines.push(
            `| ${s.route} | ${s.records} | status ${page.status}: ${JSON.stringify(page.body.errors)} | |`,
          );
          short.push(s.route);
          continue;
        }
        const read = page.body.meta?.pagination?.counts?.resources ?? page.body.data?.length ?? 0;
        const includes = page.body.meta?.features?.params?.include?.options ?? [];
        const counts: string[] = [];
        for (const include of includes) {
          const found: (number | string)[] = [];
          for (const size of [1, 25, 100]) {
            const res = await get(`${s.path}${join}page[limit]=${size}&include=${include}`);
            found.push(res.status === 200 ? (res.body.included?.length ?? 0) : `status ${res.status}`);
          }
          counts.push(`${include} ${found.join('/')}`);
          if (found.every((n) => n === 0) || found.some((n) => typeof n === 'string'))
            short.push(`${s.route} include=${include}`);
        }
        if (read < 30) short.push(s.route);
        lines.push(`| ${s.route} | ${s.records} | ${read} | ${counts.join(', ') || '—'} |`);
      }
      // Extra reads by hand: `SEED_CHECK_PATHS='/v3/orgs/{org}/governance/locations?filter[reference]=X,…'`.
      for (const extra of process.env.SEED_CHECK_PATHS?.split(',') ?? []) {
        const res = await get(extra.replace('{org}', org.id));
        lines.push(
          `| ${extra} | | ${res.body.meta?.pagination?.counts?.resources ?? res.body.data?.length} | status ${res.status} |`,
        );
      }
      process.stdout.write(
        `${lines.join('\n')}\n\nSeeded in ${seconds.toFixed(1)} s (${seedingCalls} DynamoDB calls in this process); ${seeded.filter((s) => 'path' in s).length} routes seeded, ${seeded.filter((s) => 'skipped' in s).length} skipped.\nShort of 30 records or with an empty include: ${short.length === 0 ? 'none' : short.join(', ')}\n`,
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  } finally {
    await Promise.all([dynamo.stop(), s3.stop()]);
    rmSync(keys, { recursive: true, force: true });
  }
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
