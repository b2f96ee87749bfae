/**
 * Issue 16, item 6: `npm start` reloads a changed handler or shared module without restarting DynamoDB
 * Local or s3rver and without losing their data, and `npm run invoke` calls one route as a demo principal.
 * `npm start` runs in a copy of the sources (test/support/local-copy.ts), whose files these tests edit:
 * the working tree is never touched. No assertion is about time.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../../infra/local/engines';
import { copySources, type LocalStack, runScript, startLocalStack } from '../support/local-copy';

const RELOADED = /API reloaded in \d+ ms/;
const STATUS_HANDLER = 'functions/status/get-status.ts';
const SHARED_MODULE = 'shared/http/middlewares/security-headers.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Processes end a moment after they are told to: polls `condition` until it holds, for up to a minute. */
const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Still not true after a minute: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('npm start with hot reload', () => {
  const copy = copySources();
  let stack: LocalStack;
  let stopped = false;

  beforeAll(async () => {
    stack = await startLocalStack(copy.root);
  }, 180_000);

  /** What the Ctrl-C test saw running: if it fails, whatever survived is stopped here, not left behind. */
  let started: number[] = [];
  afterAll(async () => {
    if (!stopped) await stack?.interrupt();
    for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
    copy.remove();
  }, 60_000);

  const reloads = () => stack.output().match(new RegExp(RELOADED.source, 'g'))?.length ?? 0;
  const adapters = () =>
    stack
      .processes()
      .filter((p) => p.command.includes('infra/local/api-process.ts'))
      .map((p) => p.pid);

  const adminToken = async () => {
    const [org] = stack.credentials().organisations;
    const admin = org?.clients.find((c) => c.role === 'admin');
    const response = await fetch(`${stack.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: admin?.client_id ?? '',
        client_secret: admin?.client_secret ?? '',
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  test('a changed handler answers with the new code, and records created before the reload are still served', async () => {
    const [org] = stack.credentials().organisations;
    const token = await adminToken();
    const created = await fetch(`${stack.url}/v3/orgs/${org?.id}/people/teams`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'teams', attributes: { name: 'Made before the reload' } } }),
    });
    expect(created.status).toBe(201);
    const team = (await created.json()) as { data: { id: string } };

    // Served once before the change, so the running adapter has the handler loaded: a lazy first import
    // would read the new file without any reload.
    const apiVersion = async () => {
      const status = await fetch(`${stack.url}/v3/status`);
      expect(status.status).toBe(200);
      return ((await status.json()) as { meta: { api_version: string } }).meta.api_version;
    };
    const original = await apiVersion();

    const file = join(copy.root, STATUS_HANDLER);
    const source = readFileSync(file, 'utf8');
    const version = `reloaded-${team.data.id.slice(-6)}`;
    const changed = source.replace(/api_version: '[^']*'/, `api_version: '${version}'`);
    expect(changed, `${STATUS_HANDLER} sets api_version`).not.toBe(source);
    expect(version).not.toBe(original);
    const before = reloads();
    writeFileSync(file, changed);
    await stack.printed(RELOADED, before + 1, 60_000);
    expect(stack.output()).toContain(`${STATUS_HANDLER} changed`);

    expect(await apiVersion()).toBe(version);

    // The token from before the reload still verifies (the signing key is a file), the team is still there.
    const read = await fetch(`${stack.url}/v3/orgs/${org?.id}/people/teams/${team.data.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(200);
    const body = (await read.json()) as { data: { attributes: { name: string } } };
    expect(body.data.attributes.name).toBe('Made before the reload');
  }, 120_000);

  test('a changed shared module is served by a fresh adapter process, on the same DynamoDB Local and its data', async () => {
    const [org] = stack.credentials().organisations;
    const token = await adminToken();
    const engines = stack.processes().filter((p) => p.command.includes('DynamoDBLocal.jar'));
    expect(engines).toHaveLength(1);

    const file = join(copy.root, SHARED_MODULE);
    const source = readFileSync(file, 'utf8');
    const marker = `shared-${Date.now()}`;
    const changed = source.replace("'X-Frame-Options': 'DENY',", `$&\n  'X-Reloaded': '${marker}',`);
    expect(changed, `${SHARED_MODULE} sets X-Frame-Options`).not.toBe(source);
    const before = reloads();
    writeFileSync(file, changed);
    await stack.printed(RELOADED, before + 1, 60_000);
    expect(stack.output()).toContain(`${SHARED_MODULE} changed`);

    const orgs = await fetch(`${stack.url}/v3/orgs`, { headers: { Authorization: `Bearer ${token}` } });
    expect(orgs.status).toBe(200);
    expect(orgs.headers.get('x-reloaded')).toBe(marker);
    const ids = ((await orgs.json()) as { data: { id: string }[] }).data.map((o) => o.id);
    expect(ids).toContain(org?.id);
    // The engine is the one that started with npm start; replaced adapters do not linger (one serves,
    // one spare waits).
    expect(engines.map((p) => p.pid).filter(alive)).toEqual(engines.map((p) => p.pid));
    await until(() => adapters().length <= 2, 'at most two adapter processes');
  }, 120_000);

  test('npm run invoke -- GET /v3/orgs prints the status, the headers and the body as the demo admin', () => {
    const { status, stdout, stderr } = runScript(copy.root, 'infra/local/invoke.ts', ['GET', '/v3/orgs']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const [statusLine, ...rest] = stdout.split('\n');
    expect(statusLine).toBe('200 OK');
    const blank = rest.indexOf('');
    expect(rest.slice(0, blank)).toContain('content-type: application/vnd.api+json');
    const body = JSON.parse(rest.slice(blank + 1).join('\n')) as { data: { id: string }[] };
    expect(body.data.map((o) => o.id)).toContain(stack.credentials().organisations[0]?.id);
  }, 60_000);

  test('npm run invoke -- GET on a path no route serves prints the 404 document and exits 1', () => {
    const { status, stdout, stderr } = runScript(copy.root, 'infra/local/invoke.ts', ['GET', '/v3/nowhere']);
    expect(stderr).toBe('');
    expect(status).toBe(1);
    const [statusLine, ...rest] = stdout.split('\n');
    expect(statusLine).toBe('404 Not Found');
    const body = JSON.parse(rest.slice(rest.indexOf('') + 1).join('\n')) as { errors: { status: string }[] };
    expect(body.errors.map((e) => e.status)).toEqual(['404']);
  }, 60_000);

  test('eval "$(npm run -s shell-env)" sets the README\'s variables: its TOKEN and SESSION call the API as the demo admin and user', async () => {
    const { status, stdout, stderr } = runScript(copy.root, 'infra/local/shell-env.ts', []);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    // What a shell makes of the lines: each one `export NAME='value'`.
    const variables = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((line) => {
          const [, name = '', value = ''] = /^export ([A-Z_]+)='([^']*)'$/.exec(line) ?? [];
          return [name, value];
        }),
    );
    const [org] = stack.credentials().organisations;
    expect(Object.keys(variables).sort()).toEqual(
      ['BASE', 'CLIENT_ID', 'CLIENT_SECRET', 'ISSUER', 'ORG_ID', 'SESSION', 'TOKEN'].sort(),
    );
    expect(variables.BASE).toBe(stack.url);
    expect(variables.ORG_ID).toBe(org?.id);
    const teams = await fetch(`${variables.BASE}/v3/orgs/${variables.ORG_ID}/people/teams?include=members`, {
      headers: { Authorization: `Bearer ${variables.TOKEN}` },
    });
    expect(teams.status).toBe(200);
    const whoami = await fetch(`${variables.BASE}/v3/whoami`, {
      headers: { 'X-Session-Token': variables.SESSION ?? '' },
    });
    expect(whoami.status).toBe(200);
  }, 60_000);

  test('the printed user has a demo inbox: an award expiring, a sign-in with warnings and the unacknowledged stop-work notice, counted', async () => {
    const [org] = stack.credentials().organisations;
    const headers = { 'X-Session-Token': org?.user?.session_token ?? '' };
    const list = await fetch(`${stack.url}/v3/notifications`, { headers });
    expect(list.status).toBe(200);
    const { data } = (await list.json()) as {
      data: {
        attributes: {
          event: { name: string };
          requires_ack: boolean;
          acknowledged_at: string | null;
          link: string | null;
        };
      }[];
    };
    expect(data.map((envelope) => envelope.attributes.event.name).sort()).toEqual([
      'notice.created',
      'qualification-award.expiring',
      'site-attendance.created',
    ]);
    const notice = data.find((envelope) => envelope.attributes.event.name === 'notice.created');
    expect(notice?.attributes).toMatchObject({ requires_ack: true, acknowledged_at: null });
    expect(notice?.attributes.link).toMatch(/^\/v3\/notices\//);
    const counts = await fetch(`${stack.url}/v3/notifications/counts`, { headers });
    expect(counts.status).toBe(200);
    expect(
      ((await counts.json()) as { data: { attributes: { unseen: number } } }).data.attributes.unseen,
    ).toBe(3);
  }, 60_000);

  test('a second npm start on the same port says at once which port is taken and how to choose another, starting nothing', () => {
    const port = new URL(stack.url).port;
    const { status, stdout, stderr } = runScript(copy.root, 'infra/local/start.ts', [], { PORT: port });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      `Port ${port} on 127.0.0.1 is taken (another npm start?): stop it, or choose another port, e.g. PORT=${Number(port) + 1} npm start`,
    ]);
  }, 60_000);

  // Last: it stops the stack the tests above share.
  test('Ctrl-C stops npm start and every process it started', async () => {
    const processes = stack.processes();
    started = processes.map((p) => p.pid);
    expect(processes.some((p) => p.command.includes('DynamoDBLocal.jar'))).toBe(true);
    expect(processes.some((p) => p.command.includes('infra/local/api-process.ts'))).toBe(true);
    await stack.interrupt();
    stopped = true;
    const pids = processes.map((p) => p.pid);
    await until(() => !pids.some(alive), `no process of npm start left: ${pids.filter(alive)}`);
    const refused = await fetch(stack.url).then(
      () => false,
      () => true,
    );
    expect(refused).toBe(true);
  }, 60_000);
});

describe('npm run invoke with nothing running', () => {
  const copies: ReturnType<typeof copySources>[] = [];
  const copy = () => {
    const made = copySources();
    copies.push(made);
    return made.root;
  };
  afterAll(() => {
    for (const made of copies) made.remove();
  });

  test('says in one line how to start the API, and exits 2, when npm start never ran', () => {
    const { status, stdout, stderr } = runScript(copy(), 'infra/local/invoke.ts', ['GET', '/v3/orgs']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'No local API has run here (no .local/credentials.json): start it with `npm start` in another terminal.',
    ]);
  }, 60_000);

  test('says in one line how to start the API, and exits 2, when npm start has stopped', async () => {
    const root = copy();
    const url = `http://127.0.0.1:${await freePort()}`;
    mkdirSync(join(root, '.local'));
    writeFileSync(
      join(root, '.local/credentials.json'),
      JSON.stringify({
        base_url: url,
        auth_url: url,
        organisations: [{ clients: [{ client_id: 'c', client_secret: 's', role: 'admin' }] }],
      }),
    );
    const { status, stdout, stderr } = runScript(root, 'infra/local/invoke.ts', ['GET', '/v3/orgs']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      `Nothing is listening at ${url}: start it with \`npm start\` in another terminal.`,
    ]);
  }, 60_000);
});
