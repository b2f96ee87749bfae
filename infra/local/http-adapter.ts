/**
 * The local stand-in for API Gateway (HTTP API, payload format 2.0): picks the gateway route the stack
 * deploys for each request (infra/gateway-routes.ts, with API Gateway's precedence), turns the request
 * into the event API Gateway would send, and calls that area's entry, the router CDK deploys; requests no
 * gateway route takes go to the `$default` (fallback) function, as in AWS.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { areaRouter, type LambdaHandler } from '#shared/http/area-router';
import { HeaderFieldsTooLargeError, PayloadTooLargeError, ValidationError } from '#shared/jsonapi/errors';
import { fallbackRoute, matchRoute, routes } from '#shared/routes';
import { gatewayMatch, gatewayRoutes } from '../gateway-routes';
import { BadGatewayError, gatewayAnswer, rawGatewayAnswer } from './gateway-answers';

/** API Gateway's own payload limit; larger requests never reach a function. */
const GATEWAY_BODY_LIMIT = 10 * 1024 * 1024;

const repositoryRoot = resolve(import.meta.dirname, '../..');

const gateway = gatewayRoutes(routes);
/**
 * Each area's entry, as CDK deploys it (the same router), with its handler modules imported by path
 * instead of bundled.
 */
const entries = new Map<string, LambdaHandler>();
const entryOf = (area: string): LambdaHandler => {
  let entry = entries.get(area);
  if (!entry) {
    entry = areaRouter(
      area,
      { matchRoute, fallbackRoute },
      (route) => import(pathToFileURL(resolve(repositoryRoot, route.handler)).href),
    );
    entries.set(area, entry);
  }
  return entry;
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

const toEvent = (req: IncomingMessage, body: Buffer, routeKey: string) => {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie')
      headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-proto'] = 'http';
  const now = new Date();
  const method = req.method ?? 'GET';
  const textual = TEXTUAL.test(headers['content-type'] ?? '');
  const query = url.search.slice(1);
  // No prototype: `__proto__` and `constructor` are parameter names like any other.
  const queryStringParameters: Record<string, string> = Object.create(null);
  for (const [k, v] of url.searchParams) {
    const before = queryStringParameters[k];
    queryStringParameters[k] = before === undefined ? v : `${before},${v}`;
  }
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: query,
    ...(req.headers.cookie && { cookies: req.headers.cookie.split(/;\s*/) }),
    headers,
    ...(query && { queryStringParameters }),
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

const lambdaContext = (area: string): Context => {
  const deadline = Date.now() + 10_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: area,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${area}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${area}`,
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
    send(res, gatewayAnswer(new PayloadTooLargeError(GATEWAY_BODY_LIMIT)));
    return;
  }
  const method = req.method ?? 'GET';
  const target = gatewayMatch(gateway, method, new URL(req.url ?? '/', 'http://local').pathname);
  const area = target?.area ?? fallbackRoute.area;
  const routeKey = target ? `${target.method} ${target.path}` : '$default';
  send(res, await entryOf(area)(toEvent(req, body, routeKey), lambdaContext(area)));
};

/**
 * Requests Node's HTTP parser refuses before any handler sees them (headers over its 16 KB limit, broken
 * request lines) get the same JSON:API answer as everything else, written straight to the socket.
 */
const answerUnparsable = (error: Error & { code?: string }, socket: Duplex) => {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    rawGatewayAnswer(
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new HeaderFieldsTooLargeError()
        : new ValidationError({ detail: 'The request is not well-formed HTTP/1.1.' }),
    ),
  );
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
      if (!res.headersSent) send(res, gatewayAnswer(new BadGatewayError()));
    });
  });
  server.on('clientError', answerUnparsable);
  // Idle connections stay open longer than clients keep them (undici: 4 s), so a client never sends on
  // a socket the server is closing; Node's 5 s default races it when the event loop has been busy.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, done);
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { server, url: `http://${host}:${actual}` };
};
