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
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { registerPermissions } from '#shared/domain/permissions';
import { registerRoutes } from '#shared/http/route-table';
import { servedTable } from '#shared/http/served-table';
import {
  type HttpMethod,
  matchRoute,
  permissionCatalogue,
  type Route,
  resourceTypes,
  routes as table,
} from '#shared/routes';
import {
  areas,
  bundleArea,
  coldStartFiles,
  declarationModules,
  declaredLazyModules,
  declaringAreas,
  linkedRouteIds,
  manifests,
  READS_EVERY_DECLARATION,
  routeData,
  routeDataOf,
  typesNeeded,
} from '../../infra/area-bundle';
import { gatewayMatch, gatewayRoutes } from '../../infra/gateway-routes';
import { bundleEnv } from '../support/bundle-env';

const out = mkdtempSync(join(tmpdir(), 'area-bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const env = { ...bundleEnv, POWERTOOLS_LOG_LEVEL: 'ERROR' };

/** Each area bundled once, for the tests of this file. */
const bundles = new Map<string, ReturnType<typeof bundleArea>>();
const bundled = (area: string, routes: Route[]) => {
  const built = bundles.get(area) ?? bundleArea(area, routes, join(out, area));
  bundles.set(area, built);
  return built;
};

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
      bundled(area, routes);
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

/** The files a fresh Node process loads importing `entry`, as a cold start does (seen by a module hook). */
const filesLoaded = (entry: string): string[] => {
  const script = `import { registerHooks } from 'node:module';
const files = [];
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) files.push(url); return next(url, context); } });
await import(${JSON.stringify(pathToFileURL(entry).href)});
process.stdout.write('\\nLOADED ' + JSON.stringify(files));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(stdout.slice(stdout.lastIndexOf('LOADED ') + 'LOADED '.length)) as string[];
};

// esbuild files each module in one chunk per set of entries reaching it, every route's `import()` being one:
// a cold start read 3 to 31 files holding one file's worth of code, each costing the module loader about
// 0.3 ms (docs/performance.md). The build merges them into the entry (infra/entry-merge.ts).
describe("a cold start's import reads one file: the entry holds every chunk it imports statically", () => {
  it.each([...areas()])(
    '%s',
    (area, routes) => {
      const dir = join(out, area);
      const { metafile } = bundled(area, routes);
      const entry = join(dir, 'index.mjs');
      expect(filesLoaded(entry)).toEqual([pathToFileURL(entry).href]);
      // The metafile the other tests and the bench read describes the files on disk.
      expect([...coldStartFiles(metafile)].map((file) => resolve(file))).toEqual([entry]);
      const onDisk = readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((file) => file.isFile() && file.name.endsWith('.mjs'))
        .map((file) => join(file.parentPath, file.name));
      expect(
        Object.keys(metafile.outputs)
          .map((file) => resolve(file))
          .sort(),
      ).toEqual(onDisk.sort());
    },
    60_000,
  );
});

/**
 * Request-time machinery a declaration names only behind an `import()`: the engine's endpoint handlers
 * and the data modules that move files, send mail or write principals. Every function evaluates every
 * declaration (the route table), so one static import of a move's writes from a declaration is read by
 * every cold start; issue 41's state machines did that, and start-up went from 1.54× to 1.78× the bare
 * handler's.
 */
const REQUEST_TIME =
  /^shared\/engine\/(single|collection|transition|includes|children|crud-handlers|generic-endpoints|simple-crud|uploads)\.ts$|^shared\/data\/(files|s3|email|principals|children)\.ts$/;

/** The source files whose code a cold start reads, before its route's own chunk. */
const coldStartInputs = (area: string, routes: Route[]) => {
  const { metafile } = bundled(area, routes);
  return [...coldStartFiles(metafile)].flatMap((file) =>
    Object.entries(metafile.outputs[file]?.inputs ?? {}).flatMap(([input, { bytesInOutput }]) =>
      bytesInOutput > 0 ? [input] : [],
    ),
  );
};

describe("a cold start reads the route table's declarations, not the moves and handlers they name", () => {
  it.each([...areas()])(
    '%s',
    (area, routes) => {
      expect(coldStartInputs(area, routes).filter((input) => REQUEST_TIME.test(input))).toEqual([]);
    },
    60_000,
  );
});

/** The source files a route's first request reads: the cold start's, then its route's own chunk. */
const firstRequestInputs = (area: string, routes: Route[], route: Route) => {
  const { metafile } = bundled(area, routes);
  return [...coldStartFiles(metafile, route)].flatMap((file) =>
    Object.entries(metafile.outputs[file]?.inputs ?? {}).flatMap(([input, { bytesInOutput }]) =>
      bytesInOutput > 0 ? [input] : [],
    ),
  );
};

/** zod, or the builders that load it: only a write (or a handler parsing a body or query of its own) needs it. */
const SCHEMA_CODE =
  /node_modules\/zod\/|^shared\/jsonapi\/(schema-builders|attribute-types|served-types|request-document)\.ts$/;

/**
 * The GET routes whose first request still loads zod: bespoke handlers that parse a query with it or
 * import a read helper from a module of writes. Today's exceptions; this list may only shrink.
 */
const READS_LOADING_ZOD_TODAY = new Set([
  'beginSsoLogin',
  'finishSsoLogin',
  'getTeamMembers',
  'listRateCodeVersions',
  'getRateCodeVersion',
  'getExport',
]);

describe('a read loads no zod: declarations load their schema builders with a write, reads none', () => {
  it.each([...areas()])(
    '%s',
    (area, routes) => {
      expect(coldStartInputs(area, routes).filter((input) => SCHEMA_CODE.test(input))).toEqual([]);
      for (const route of routes.filter((r) => r.method === 'GET' && !READS_LOADING_ZOD_TODAY.has(r.id)))
        expect(
          firstRequestInputs(area, routes, route).filter((input) => SCHEMA_CODE.test(input)),
          route.id,
        ).toEqual([]);
    },
    60_000,
  );

  it('every route excepted still loads zod (remove one from the list once its read loads none)', () => {
    const loading = [...areas()].flatMap(([area, routes]) =>
      routes
        .filter((route) => READS_LOADING_ZOD_TODAY.has(route.id))
        .filter((route) => firstRequestInputs(area, routes, route).some((input) => SCHEMA_CODE.test(input)))
        .map((route) => route.id),
    );
    expect(new Set(loading)).toEqual(READS_LOADING_ZOD_TODAY);
  }, 120_000);
});

/** Powertools Metrics: only the street-works receiver and webhook deliveries count (`shared/http/metrics.ts`). */
const METRICS_CODE = /node_modules\/@aws-lambda-powertools\/metrics\//;

describe('a read loads no metrics code: every request logs, two handlers count', () => {
  it.each([...areas()])(
    '%s',
    (area, routes) => {
      for (const route of routes.filter((r) => r.method === 'GET'))
        expect(
          firstRequestInputs(area, routes, route).filter((input) => METRICS_CODE.test(input)),
          route.id,
        ).toEqual([]);
    },
    60_000,
  );
});

describe('a function none of whose routes declares a bucket bundles no S3 client', () => {
  it.each([...areas()])(
    '%s',
    (area, routes) => {
      const { metafile } = bundled(area, routes);
      const s3 = Object.keys(metafile.inputs).filter((input) => input.includes('@aws-sdk/client-s3/'));
      if (routes.some((route) => route.access.buckets)) expect(s3.length).toBeGreaterThan(0);
      else {
        expect(s3).toEqual([]);
        // Nor is the REST-XML protocol S3 shares with the DynamoDB client's modules in its cold start.
        const restXml = /protocols\/xml\/(AwsRestXmlProtocol|XmlShapeSerializer)\.js$/;
        expect(coldStartInputs(area, routes).filter((input) => restXml.test(input))).toEqual([]);
      }
    },
    60_000,
  );
});

describe('a function bundles the modules declarations load lazily for the types it answers or includes only', () => {
  const bundledLazyModules = (area: string) => {
    const { metafile } = bundled(area, areas().get(area) ?? []);
    return declaredLazyModules()
      .map(({ path }) => path)
      .filter((path) => metafile.inputs[path]);
  };

  it('the status function, which answers no declared type, bundles none (its cold start reads 11 files, not 42)', () => {
    expect(declaredLazyModules().length).toBeGreaterThan(10);
    expect(bundledLazyModules('status')).toEqual([]);
  });

  it.each([...areas()].filter(([area]) => declaredLazyModules().some((m) => m.folder === area)))(
    '%s bundles those of its own declarations',
    (area) => {
      const own = declaredLazyModules().flatMap(({ folder, path }) => (folder === area ? [path] : []));
      expect(bundledLazyModules(area)).toEqual(expect.arrayContaining(own));
    },
    60_000,
  );

  it("CDM bundles the projects' progress reader: its plans include their scheme, whose counts it derives", () => {
    expect(bundledLazyModules('cdm')).toContain('functions/projects/progress.ts');
    expect(bundledLazyModules('cdm')).not.toContain('functions/costs/node-totals.ts');
  });
});

describe('an entry matches on the route table as build-time data, which agrees with shared/routes.ts', () => {
  afterAll(() => {
    registerRoutes(table);
    registerPermissions(permissionCatalogue);
  });

  it('every path of every route, and every other method on it, is answered alike by both', () => {
    const served = servedTable(routeData(), [], [...permissionCatalogue]);
    expect(routeData().map(([id]) => id)).toEqual(table.map((route) => route.id));
    for (const route of table) {
      const path = route.path.replace(/\{\w+\}/g, 'x');
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']) {
        const data = served.matchRoute(method, path);
        const root = matchRoute(method, path);
        expect([data.match?.route.id, data.match?.params, data.allowed], `${method} ${path}`).toEqual([
          root.match?.route.id,
          root.match?.params,
          root.allowed,
        ]);
        if (data.match) expect(data.match.route.area).toBe(root.match?.route.area);
      }
    }
  });

  // Each entry carries its own routes and the others a request reaching it can match (`routeDataOf`):
  // every path of every route, filled with a plain value and with each literal any route spells at a
  // parameter's place, with every method, that API Gateway sends to the area, is answered as the whole
  // table answers it (the router's route, else the fallback's 404 or 405 with the same Allow).
  const gateway = gatewayRoutes(table);
  const literals = new Map<number, Set<string>>();
  for (const route of table)
    route.path.split('/').forEach((segment, i) => {
      if (!segment.startsWith('{')) literals.set(i, new Set([...(literals.get(i) ?? []), segment]));
    });
  const samples = [
    ...new Set(
      table.flatMap((route) => {
        const segments = route.path.split('/');
        return [
          segments.map((s) => (s.startsWith('{') ? 'x' : s)).join('/'),
          ...segments.flatMap((segment, i) =>
            segment.startsWith('{')
              ? [...(literals.get(i) ?? [])].map((literal) =>
                  segments.map((s, j) => (j === i ? literal : s.startsWith('{') ? 'x' : s)).join('/'),
                )
              : [],
          ),
        ];
      }),
    ),
  ];

  it.each([...areas()].filter(([area]) => area !== 'fallback'))(
    '%s: every request API Gateway sends it is matched by its part of the table as by the whole',
    (area) => {
      const served = servedTable(routeDataOf(area), [], [...permissionCatalogue]);
      const answer = (match: ReturnType<typeof matchRoute>) =>
        match.match
          ? [match.match.route.area === area ? match.match.route.id : 'fallback', match.match.params]
          : ['fallback', match.allowed];
      let reaching = 0;
      for (const path of samples)
        for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']) {
          if ((gatewayMatch(gateway, method, path)?.area ?? 'fallback') !== area) continue;
          reaching += 1;
          const whole = answer(matchRoute(method, path));
          expect(answer(served.matchRoute(method, path)), `${method} ${path}`).toEqual(whole);
          // The fallback lists the methods of its own table's routes at the path (405's Allow).
          if (whole[0] === 'fallback')
            expect(served.matchRoute(method, path).allowed).toEqual(matchRoute(method, path).allowed);
        }
      expect(reaching).toBeGreaterThan(0);
    },
  );

  it("an entry carries another area's route at a path the area's greedy gateway route takes with other methods (405's Allow)", () => {
    const route = (area: string, method: HttpMethod, path: string) =>
      ({ id: `${area}${method}${path}`, method, path, area }) as Partial<Route> as Route;
    // Two areas serve one path: the gateway sends each its method, and a third method to the greedy
    // route of the area with most routes under the prefix, which must answer 405 naming both.
    const shared = [
      route('a', 'GET', '/v3/orgs/{org_id}/things'),
      route('a', 'GET', '/v3/orgs/{org_id}/things/{id}'),
      route('a', 'GET', '/v3/orgs/{org_id}/stuff/{id}'),
      route('b', 'POST', '/v3/orgs/{org_id}/things/{id}'),
      route('b', 'GET', '/v3/orgs/{org_id}/b-things'),
    ];
    expect(gatewayMatch(gatewayRoutes(shared), 'DELETE', '/v3/orgs/x/things/y')?.area).toBe('a');
    expect(routeDataOf('a', shared).map(([id]) => id)).toContain('bPOST/v3/orgs/{org_id}/things/{id}');
    expect(routeDataOf('a', shared).map(([id]) => id)).not.toContain('bGET/v3/orgs/{org_id}/b-things');
    expect(routeDataOf('b', shared).map(([id]) => id)).not.toContain('aGET/v3/orgs/{org_id}/things');
  });

  it('an entry carries its own routes and the few others only, the fallback the whole table', () => {
    expect(routeDataOf('fallback')).toEqual(routeData());
    for (const [area, routes] of areas())
      if (area !== 'fallback')
        expect(routeDataOf(area).length, area).toBeLessThanOrEqual(routes.length + linkedRouteIds().size);
  });

  it.each([...areas()])(
    '%s: every route its code names by id (a link, a handler) is in its part of the table',
    (area, routes) => {
      const carried = new Set(routeDataOf(area).map(([id]) => id));
      const ids = new Set<string>(table.map((route) => route.id));
      const named = Object.keys(bundled(area, routes).metafile.inputs)
        .filter((input) => /^(functions|shared)\//.test(input) && !MANIFEST.test(input))
        .flatMap((input) =>
          [
            ...readFileSync(input, 'utf8').matchAll(/(?:routePath|routeById|[a-zA-Z]+Handler)\(\s*'(\w+)'/g),
          ].map(([, id]) => `${id} (${input})`),
        )
        .filter((name) => ids.has(name.split(' ')[0] ?? ''));
      expect(named.filter((name) => !carried.has(name.split(' ')[0] ?? ''))).toEqual([]);
    },
    60_000,
  );
});

/** An area's manifest: what the composition root imports of each area, and an entry of the areas it needs. */
const MANIFEST = /^functions\/[^/]+\/([^/]+-)?area\.ts$/;

describe("a cold start evaluates its own manifest and the declarations of the types its routes answer, include or link to, not every area's", () => {
  // Those whose routes read every event, type's read permission or feature carry it as data
  // (test/infra/every-declaration-data.test.ts); `eventNames()` refuses where it is not carried
  // (test/unit/data/event-names.test.ts).
  it('the audit, events, webhooks, feature configurations and notifications functions carry what they read of every declaration', () => {
    expect(Object.fromEntries(READS_EVERY_DECLARATION)).toEqual({
      audit: ['events'],
      events: ['events', 'read-permissions'],
      'feature-configurations': ['features'],
      notifications: ['notification-rules'],
      webhooks: ['events', 'read-permissions'],
    });
  });

  it.each([...areas()])(
    '%s',
    (area, routes) => {
      const inputs = coldStartInputs(area, routes);
      expect(inputs).not.toContain('shared/routes.ts');
      // Its own manifest only: the types of other areas it needs come from their declaration modules.
      expect(inputs.filter((input) => MANIFEST.test(input))).toEqual([manifests().get(area) ?? []].flat());
      const needed = [...typesNeeded(routes)].filter((type) => resourceTypes.has(type));
      expect(
        needed.filter((type) => !inputs.includes(declarationModules().get(type) ?? type)),
        'types whose declarations its cold start lacks',
      ).toEqual([]);
    },
    60_000,
  );

  // What reads every declaration, by the part an entry carries for it: a module of a function's bundle
  // calling one of these needs that part registered, or its first such request throws in AWS.
  const READERS_OF_EVERY = {
    events: /\b(eventNames|typesNamed|readPresentation|readableEvent|readEvents|streamEvents)\(/,
    'read-permissions': /\bviewPermissions\(/,
    features: /\bfeatureCatalogue\(\)/,
    'notification-rules': /\bnotificationRules\(\)/,
  } as const;
  const DEFINING = new Set([
    'shared/data/events.ts',
    'shared/http/read-permissions.ts',
    'shared/engine/feature-catalogue.ts',
    'shared/engine/notification-rules.ts',
  ]);

  it.each([...areas()])('%s carries every part of every declaration its bundle reads', (area, routes) => {
    const sources = Object.keys(bundled(area, routes).metafile.inputs).filter(
      (input) => /^(functions|shared)\//.test(input) && !DEFINING.has(input),
    );
    const read = Object.entries(READERS_OF_EVERY).flatMap(([part, reader]) =>
      sources.some((input) => reader.test(readFileSync(input, 'utf8'))) ? [part] : [],
    );
    expect(read.filter((part) => !READS_EVERY_DECLARATION.get(area)?.includes(part as never))).toEqual([]);
  });

  it('each type the service serves is found in the module that declares it', async () => {
    for (const [type, definition] of resourceTypes) {
      const path = declarationModules().get(type);
      expect(path, type).toBeDefined();
      const module: Record<string, unknown> = await import(`../../${path}`);
      expect(Object.values(module), `${type} in ${path}`).toContain(definition);
    }
  });

  it("assets loads the declarations of the types it links to, not the rest of their areas'", () => {
    const inputs = coldStartInputs('assets', areas().get('assets') ?? []);
    expect(inputs).toEqual(
      expect.arrayContaining(['functions/places/definitions.ts', 'functions/people/users.ts']),
    );
    // Invitations and document versions are people's and documents' types no asset links to.
    for (const other of ['functions/people/invitations.ts', 'functions/documents/versions/definition.ts'])
      expect(inputs).not.toContain(other);
  });

  it('the assets function answers a method its path lacks with 405, its fallback matching the table as data', () => {
    bundled('assets', areas().get('assets') ?? []);
    const path = '/v3/orgs/0190a0a0-0000-7000-8000-000000000001/assets/equipment-manufacturers';
    const { statusCode, body } = answer(join(out, 'assets', 'index.mjs'), 'DELETE', path);
    expect(statusCode, body).toBe(405);
  });

  it('assets reaches its own, the places and people it links to, and not CDM, costs or agents', () => {
    const reached = declaringAreas('assets', areas().get('assets') ?? []);
    expect(reached).toEqual(expect.arrayContaining(['assets', 'people', 'places']));
    for (const other of ['cdm', 'costs', 'agents']) expect(reached).not.toContain(other);
  });
});

/** The OpenAPI document, kept equal to the code (test/api/specifications.test.ts). */
const openapi = JSON.parse(readFileSync(join(import.meta.dirname, '../../docs/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: unknown }>>;
};

/** A `$ref` of the document (`#/components/schemas/…`), resolved. */
const resolved = (node: unknown): unknown => {
  const ref = (node as { $ref?: string } | null)?.$ref;
  return ref
    ? ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], openapi)
    : node;
};

/** Every name a schema lets a client put in a `type` member (a resource object's, a linkage's, a subject's). */
const typeNames = (schema: unknown, seen = new Set<unknown>()): string[] => {
  const node = resolved(schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return [];
  seen.add(node);
  const member = resolved((node as { properties?: { type?: unknown } }).properties?.type) as
    | { const?: string; enum?: string[] }
    | undefined;
  return [
    ...(member?.const ? [member.const] : []),
    ...(member?.enum ?? []),
    ...Object.values(node).flatMap((value) => typeNames(value, seen)),
  ];
};

/** Each operation's request body, by its route id. */
const requestBodies = new Map(
  Object.values(openapi.paths).flatMap((operations) =>
    Object.values(operations).flatMap(({ operationId, requestBody }) =>
      operationId && requestBody ? [[operationId, requestBody] as const] : [],
    ),
  ),
);

// A write finds the records a body names by their types' declarations (a comment's subject, a link's
// target). The tests run every declaration in one process, so a declaration a function's bundle lacks
// passes them all, and in AWS the lookup finds nothing: a comment on a document was a 500 there.
describe('every declared type a route’s body can name is declared by what its first request loads', () => {
  it.each([...areas()])(
    '%s',
    (area, routes) => {
      const undeclared = routes.flatMap((route) => {
        const inputs = new Set(firstRequestInputs(area, routes, route));
        return [...new Set(typeNames(requestBodies.get(route.id)))]
          .filter((type) => resourceTypes.has(type))
          .filter((type) => !inputs.has(declarationModules().get(type) ?? type))
          .map((type) => `${route.id}: ${type}`);
      });
      expect(undeclared).toEqual([]);
    },
    60_000,
  );

  it('reads the names a body offers: a comment’s subject may be any commentable type, a vehicle names its allocation', () => {
    expect(typeNames(requestBodies.get('createComment'))).toEqual(
      expect.arrayContaining(['comments', 'documents', 'equipment-items', 'briefings']),
    );
    expect(typeNames(requestBodies.get('createVehicle'))).toContain('vehicles');
  });
});

/**
 * Each area's start-up budget in bytes: the most a first GET of any of its routes reads (the entry, its
 * static imports, the route's chunk and its static imports, minified), but the reads still listed as
 * loading zod, which their own list fences. Today's figures (issue 42: per-area route tables,
 * declarations loaded by type, what audit, events, webhooks and feature configurations read of every
 * declaration carried as data, no Metrics code in a read) plus about 8 KB, each lowered by the whole
 * KB the entry's merged chunks cut (0.4–8.5 KB: fewer chunk boundaries to import across); steadier
 * than the bench's CPU ratio, which moves ±0.05× with the machine's load. Raise one only with a reason
 * in its commit; lower it when a change cuts.
 */
const FIRST_GET_BYTES: Record<string, number> = {
  status: 373_000,
  auth: 420_000,
  organisations: 430_000,
  people: 467_000,
  qualifications: 477_000,
  'site-attendances': 486_000,
  'feature-configurations': 430_000,
  iam: 462_000,
  assets: 485_000,
  audit: 476_000,
  places: 487_000,
  projects: 476_000,
  costs: 482_000,
  cdm: 499_000,
  'street-works': 434_000,
  'street-works-feed': 295_000,
  customers: 462_000,
  agents: 460_000,
  comments: 455_000,
  documents: 498_000,
  // Issue 44: the declarations of the seven types an image's subject may name load with it (about 8 KB).
  images: 514_000,
  'device-backups': 477_000,
  exports: 479_000,
  events: 388_000,
  webhooks: 450_000,
  notifications: 517_000,
  specifications: 373_000,
  // Its subject, source and assignee link into seven areas' types, whose declarations its entry carries.
  actions: 495_000,
  fallback: 396_000,
};

describe('a first GET reads no more bytes than its area’s start-up budget', () => {
  it('every area has a budget', () => {
    expect(Object.keys(FIRST_GET_BYTES).sort()).toEqual([...areas().keys()].sort());
  });

  it.each([...areas()])(
    '%s',
    (area, routes) => {
      const { metafile } = bundled(area, routes);
      const bytes = (route?: Route) =>
        [...coldStartFiles(metafile, route)].reduce(
          (sum, file) => sum + (metafile.outputs[file]?.bytes ?? 0),
          0,
        );
      const read = [
        ['cold start', bytes()] as const,
        ...routes
          .filter((route) => route.method === 'GET' && !READS_LOADING_ZOD_TODAY.has(route.id))
          .map((route) => [route.id, bytes(route)] as const),
      ].sort(([, a], [, b]) => b - a);
      const [route, most] = read[0] ?? ['none', 0];
      expect(most, `${area}'s ${route} reads ${most} bytes`).toBeLessThanOrEqual(FIRST_GET_BYTES[area] ?? 0);
    },
    60_000,
  );
});
