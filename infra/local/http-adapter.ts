/**
 * The local stand-in for API Gateway (HTTP API, payload format 2.0): turns each HTTP request into the
 * event API Gateway would send and calls the very handler module CDK deploys for the matching route in
 * the route table; requests no route matches go to the `$default` (fallback) handler, as in AWS.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { SECURITY_HEADERS } from '../../shared/http/middlewares/security-headers';
import { fallbackRoute, matchRoute, type Route } from '../../shared/routes';

/** API Gateway's own payload limit; larger requests never reach a function. */
const GATEWAY_BODY_LIMIT = 10 * 1024 * 1024;

type Handler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

const repositoryRoot = resolve(import.meta.dirname, '../..');
const loaded = new Map<string, Promise<Handler>>();

const loadHandler = (route: Route): Promise<Handler> => {
  let handler = loaded.get(route.handler);
  if (!handler) {
    const url = pathToFileURL(resolve(repositoryRoot, route.handler)).href;
    handler = import(url).then((m: { handler: Handler }) => m.handler);
    loaded.set(route.handler, handler);
  }
  return handler;
};

const readBody = (req: IncomingMessage): Promise<Buffer | 'too large'> =>
  new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_BODY_LIMIT) chunks.push(chunk);
    });
    req.on('end', () => done(size > GATEWAY_BODY_LIMIT ? 'too large' : Buffer.concat(chunks)));
    req.on('error', fail);
  });

// API Gateway passes text bodies as they are and base64-encodes everything else.
const TEXTUAL = /^(text\/|application\/([\w.+-]+\+)?(json|xml|x-www-form-urlencoded))/i;

const toEvent = (req: IncomingMessage, body: Buffer, route: Route, params: Record<string, string>) => {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie')
      headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-proto'] = 'http';
  const now = new Date();
  const method = req.method ?? 'GET';
  const routeKey = route === fallbackRoute ? '$default' : `${route.method} ${route.path}`;
  const textual = TEXTUAL.test(headers['content-type'] ?? '');
  const query = url.search.slice(1);
  const queryStringParameters: Record<string, string> = {};
  for (const [k, v] of url.searchParams)
    queryStringParameters[k] = k in queryStringParameters ? `${queryStringParameters[k]},${v}` : v;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: query,
    ...(req.headers.cookie && { cookies: req.headers.cookie.split(/;\s*/) }),
    headers,
    ...(query && { queryStringParameters }),
    ...(Object.keys(params).length > 0 && { pathParameters: params }),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: req.headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 && {
      body: textual ? body.toString('utf8') : body.toString('base64'),
    }),
    isBase64Encoded: body.length > 0 && !textual,
  } satisfies APIGatewayProxyEventV2;
};

const lambdaContext = (route: Route): Context => {
  const deadline = Date.now() + 10_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: route.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.id}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${route.id}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

const send = (res: ServerResponse, result: APIGatewayProxyStructuredResultV2) => {
  const body =
    result.body === undefined
      ? Buffer.alloc(0)
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  res.statusCode = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies) res.setHeader('Set-Cookie', result.cookies);
  res.setHeader('Content-Length', body.length);
  res.end(body);
};

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  const body = await readBody(req);
  if (body === 'too large') {
    send(res, {
      statusCode: 413,
      headers: { ...SECURITY_HEADERS, 'Content-Type': 'application/json' },
      body: '{"message":"Request Entity Too Large"}',
    });
    return;
  }
  const { match } = matchRoute(req.method ?? 'GET', new URL(req.url ?? '/', 'http://local').pathname);
  const route = match?.route ?? fallbackRoute;
  const handler = await loadHandler(route);
  send(res, await handler(toEvent(req, body, route, match?.params ?? {}), lambdaContext(route)));
};

/** An HTTP server for the whole API; `port` 0 picks a free one. */
export const startLocalApi = async (
  port: number,
  host = '127.0.0.1',
): Promise<{ server: Server; url: string }> => {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(
        `local adapter failure: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      if (!res.headersSent)
        send(res, {
          statusCode: 502,
          headers: { ...SECURITY_HEADERS, 'Content-Type': 'application/json' },
          body: '{"message":"Internal Server Error"}',
        });
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, done);
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { server, url: `http://${host}:${actual}` };
};
