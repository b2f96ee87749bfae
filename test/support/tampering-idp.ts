/**
 * A token endpoint that lies, for the refusals an honest provider never gives cause for: provider
 * metadata (as JSON) that keeps the local provider's authorization endpoint but names this loopback
 * server's token endpoint, which forwards the code exchange to the provider and rewrites the ID token it
 * returns, re-signed with a key whose public half it serves as `jwks_uri` (or with a stranger's key under
 * the same key id).
 */
import { createServer } from 'node:http';
import { type CryptoKey, decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { oidcDiscoveryUrl } from './identity-provider';

export interface TamperingIdp {
  /** The provider record's `metadata`: the discovery document, with this server's token endpoint and keys. */
  metadata: string;
  /** How the next token responses' ID tokens are rewritten, and whether a stranger's key signs them. */
  tamper(claims: (claims: JWTPayload) => JWTPayload, options?: { strangerSigns?: boolean }): void;
  close(): Promise<void>;
}

export const startTamperingIdp = async (): Promise<TamperingIdp> => {
  const kid = 'test-signing-key';
  const discovery = (await (await fetch(oidcDiscoveryUrl)).json()) as Record<string, string>;
  const pair = await generateKeyPair('RS256');
  const stranger: CryptoKey = (await generateKeyPair('RS256')).privateKey;
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' }],
  });
  let rewrite: { claims: (claims: JWTPayload) => JWTPayload; key: CryptoKey } = {
    claims: (claims) => claims,
    key: pair.privateKey,
  };
  const server = createServer(async (req, res) => {
    if (req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
      return;
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    const upstream = await fetch(String(discovery.token_endpoint), {
      method: 'POST',
      headers: {
        'content-type': String(req.headers['content-type']),
        ...(req.headers.authorization && { authorization: req.headers.authorization }),
      },
      body,
    });
    const answer = (await upstream.json()) as Record<string, unknown>;
    if (upstream.ok && typeof answer.id_token === 'string') {
      answer.id_token = await new SignJWT(rewrite.claims(decodeJwt(answer.id_token)))
        .setProtectedHeader({ alg: 'RS256', kid })
        .sign(rewrite.key);
    }
    res.writeHead(upstream.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(answer));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    metadata: JSON.stringify({ ...discovery, token_endpoint: `${base}/token`, jwks_uri: `${base}/jwks` }),
    tamper: (claims, { strangerSigns = false } = {}) => {
      rewrite = { claims, key: strangerSigns ? stranger : pair.privateKey };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
