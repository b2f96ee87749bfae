/**
 * One webhook request, sent only to a checked public address. The host is resolved here, every address
 * it resolves to is judged (`shared/domain/webhook-addresses.ts`): if any is refused the attempt is,
 * and the connection goes to the address that was checked (the socket's `lookup` answers it), so a DNS
 * answer that changes between the check and the connect (rebinding) cannot move it. TLS still verifies
 * the certificate against the host name. Redirects are not followed: a 3xx is the answer. The attempt is
 * bounded in time as a whole (connect, send, answer) and in what it keeps of the answer.
 */
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressRange, judgeAddress } from '../domain/webhook-addresses';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowLoopback: boolean;
  /** How many bytes of the answer to keep. */
  excerptBytes: number;
}

export type WebhookOutcome =
  | { status: number; excerpt: string; error?: undefined }
  | { status: null; excerpt: ''; error: string };

export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** The address to connect to, or why none may be: every address the host resolves to must be allowed. */
export const checkedAddress = async (
  host: string,
  allowLoopback: boolean,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: number } | { error: string }> => {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const literal = addressRange(bare) !== null;
  let addresses: LookupAddress[];
  try {
    addresses = literal ? [{ address: bare, family: bare.includes(':') ? 6 : 4 }] : await resolve(bare);
  } catch (error) {
    return { error: `${bare} did not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (addresses.length === 0) return { error: `${bare} did not resolve` };
  for (const { address } of addresses) {
    const verdict = judgeAddress(address, allowLoopback);
    if (!verdict.allowed) return { error: `Refused: ${bare} resolves to ${verdict.reason}` };
  }
  const [first] = addresses as [LookupAddress];
  return { address: first.address, family: first.family };
};

export const sendWebhook = async (
  request: WebhookRequest,
  resolve: Resolver = systemResolver,
): Promise<WebhookOutcome> => {
  const url = new URL(request.url);
  const target = await checkedAddress(url.hostname, request.allowLoopback, resolve);
  if ('error' in target) return { status: null, excerpt: '', error: target.error };
  // Node asks with `all: true` when it may try several addresses: answer the one checked, in either form.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [target] as never);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookOutcome>((done) => {
    let settled = false;
    const finish = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      done(outcome);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(request.body)),
        },
        lookup: pinned,
        // A new connection each time: a pooled socket could be one made to another address.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < request.excerptBytes) {
            chunks.push(chunk.subarray(0, request.excerptBytes - kept));
            kept += Math.min(chunk.length, request.excerptBytes - kept);
          }
          // Enough kept: the rest of a large answer is not read.
          if (kept >= request.excerptBytes)
            finish({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('end', () =>
          finish({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () =>
          finish({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    const timer = setTimeout(
      () => finish({ status: null, excerpt: '', error: `No answer within ${request.timeoutMs / 1000} s` }),
      request.timeoutMs,
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ status: null, excerpt: '', error: `Could not deliver: ${error.code ?? error.message}` }),
    );
    req.end(request.body);
  });
};
