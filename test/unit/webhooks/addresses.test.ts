/**
 * Issue 18, item 4: no delivery to private, loopback or link-local addresses (loopback only when the
 * configuration allows it). The rules are pure (`functions/webhooks/rules`); the resolver check and the
 * pinned connection are exercised with an injected resolver and a loopback receiver.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeUrl } from '#functions/webhooks/rules/subscriptions';
import { checkedAddress, type Resolver, sendWebhook } from '#shared/data/webhook-http';
import { judgeAddress } from '#shared/domain/webhook-addresses';

const REFUSED = [
  '127.0.0.1',
  '127.8.9.10',
  '10.1.2.3',
  '172.16.0.1',
  '192.168.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
  '::1',
  '::',
  'fe80::1',
  'fd00::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '2002:a00:1::',
  '64:ff9b::a00:1',
];

const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('webhook addresses (loopback disallowed, as in AWS)', () => {
  it('refuses loopback, private, link-local (169.254.169.254), CGNAT, unspecified, multicast, reserved and tunnel addresses', () => {
    for (const address of REFUSED) expect(judgeAddress(address, false).allowed, address).toBe(false);
  });

  it('accepts public unicast addresses, IPv4 and IPv6', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])
      expect(judgeAddress(address, false), address).toEqual({ allowed: true });
  });

  it('loopback only when the configuration allows it; private and link-local never', () => {
    expect(judgeAddress('127.0.0.1', true).allowed).toBe(true);
    expect(judgeAddress('::1', true).allowed).toBe(true);
    expect(judgeAddress('10.0.0.1', true).allowed).toBe(false);
    expect(judgeAddress('169.254.169.254', true).allowed).toBe(false);
  });

  it('subscription URLs: https; http and loopback names only with loopback allowed; literal private IPs never', () => {
    expect(judgeUrl('https://hooks.example.com/in', false).allowed).toBe(true);
    for (const url of [
      'http://127.0.0.1:8080/in',
      'https://127.0.0.1/in',
      'https://[::1]/in',
      'https://localhost/in',
      'https://a.localhost/in',
      'https://10.0.0.1/in',
      'https://169.254.169.254/',
      'http://hooks.example.com/in',
      'https://u:p@hooks.example.com/in',
    ])
      expect(judgeUrl(url, false).allowed, url).toBe(false);
    expect(judgeUrl('http://127.0.0.1:8080/in', true).allowed).toBe(true);
    expect(judgeUrl('http://localhost:8080/in', true).allowed).toBe(true);
    expect(judgeUrl('https://10.0.0.1/in', true).allowed).toBe(false);
  });

  it('a name is judged by every address it resolves to: one non-public address refuses it', async () => {
    expect(await checkedAddress('hooks.example.test', false, resolvesTo('127.0.0.1'))).toEqual({
      error: 'Refused: hooks.example.test resolves to 127.0.0.1 is a loopback address, not a public one',
    });
    expect(await checkedAddress('hooks.example.test', false, resolvesTo('::1'))).toHaveProperty('error');
    expect(
      await checkedAddress('hooks.example.test', false, resolvesTo('93.184.215.14', '10.0.0.7')),
    ).toHaveProperty('error');
    expect(await checkedAddress('hooks.example.test', false, resolvesTo('93.184.215.14'))).toEqual({
      address: '93.184.215.14',
      family: 4,
    });
    for (const literal of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]'])
      expect(await checkedAddress(literal, false, resolvesTo('93.184.215.14')), literal).toHaveProperty(
        'error',
      );
  });
});

describe('sending: the connection goes to the address that was checked', () => {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
    res.end('x'.repeat(5000));
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const send = (host: string, resolve: Resolver, allowLoopback: boolean) =>
    sendWebhook(
      {
        url: `http://${host}:${port}/in`,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
        allowLoopback,
        excerptBytes: 100,
      },
      resolve,
    );

  it('a name resolving to loopback is refused before any connection when loopback is disallowed', async () => {
    const outcome = await send('rebind.example.test', resolvesTo('127.0.0.1'), false);
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/^Refused: .*loopback/) });
    expect(received).toHaveLength(0);
  });

  it('the socket connects to the checked address, never resolving the name again (DNS rebinding); redirects are answers, not followed; the excerpt is bounded', async () => {
    // `.test` names resolve nowhere: the request reaching the receiver proves the checked address was used.
    let lookups = 0;
    const once: Resolver = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const outcome = await send('rebind.example.test', once, true);
    expect(lookups).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]?.host).toBe(`rebind.example.test:${port}`);
    expect(outcome).toMatchObject({ status: 302 });
    expect(outcome.excerpt).toHaveLength(100);
  });
});
