import { describe, expect, it } from 'vitest';
import { parseIdempotencyKey, requestFingerprint } from '#shared/http/middlewares/idempotency';
import { replayableBody } from '#shared/http/replayable-answer';
import { ValidationError } from '#shared/jsonapi/errors';

describe('Idempotency-Key values (draft-ietf-httpapi-idempotency-key-header: an sf-string)', () => {
  it('a Structured Field String is unquoted and unescaped; its parameters are ignored', () => {
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(parseIdempotencyKey('"a \\"quoted\\" \\\\ key"')).toBe('a "quoted" \\ key');
    expect(parseIdempotencyKey('"k";v=1')).toBe('k');
  });

  it('the same characters bare are the same key (what most clients send)', () => {
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(parseIdempotencyKey(' k!#$%&*+.^_`|~=/ ')).toBe('k!#$%&*+.^_`|~=/');
  });

  it.each([
    ['""', 'empty'],
    [`"${'x'.repeat(256)}"`, 'too long'],
    ['x'.repeat(256), 'too long bare'],
    ['"open', 'unterminated'],
    ['"a", "b"', 'a list'],
    ['a b', 'a space in a bare key'],
    ['\u00e9t\u00e9', 'not ASCII'],
    ['"\u00e9"', 'not ASCII in a string'],
    ['"tab\there"', 'a control character'],
  ])('%s is refused (%s) at source.header', (value) => {
    let error: unknown;
    try {
      parseIdempotencyKey(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).source).toEqual({ header: 'Idempotency-Key' });
  });

  it('255 characters are the most', () => {
    expect(parseIdempotencyKey('x'.repeat(255))).toHaveLength(255);
  });
});

describe('the fingerprint of a request', () => {
  const body = Buffer.from('{"data":{}}');
  it('changes with method, path with query, principal and body; fields cannot run into one another', () => {
    const base = requestFingerprint('POST', '/v3/a?x=1', 'p1', body);
    expect(requestFingerprint('POST', '/v3/a?x=1', 'p1', Buffer.from('{"data":{}}'))).toBe(base);
    for (const other of [
      requestFingerprint('PATCH', '/v3/a?x=1', 'p1', body),
      requestFingerprint('POST', '/v3/a?x=2', 'p1', body),
      requestFingerprint('POST', '/v3/a?x=1', 'p2', body),
      requestFingerprint('POST', '/v3/a?x=1', 'p1', Buffer.from('{"data":{} }')),
      requestFingerprint('POST', '/v3/a?x=1\np1', '', body),
    ])
      expect(other).not.toBe(base);
  });
});

describe('what an idempotency record keeps of an answer', () => {
  const key = {
    data: {
      type: 'service-account-keys',
      id: 'k1',
      attributes: { client_id: 'k1', client_secret: 'sEcReTvAlUe1234', enabled: true },
      meta: { secret_shown_once: true },
    },
  };

  it('a secret shown once is masked as its GET shows it, and the replay says what it left out', () => {
    const kept = JSON.parse(replayableBody(JSON.stringify(key), 'application/vnd.api+json'));
    expect(kept.data.attributes.client_secret).toBe('************1234');
    expect(kept.data.meta.secret_shown_once).toBe(false);
    expect(kept.meta.replay.omitted).toEqual(['/data/attributes/client_secret']);
    expect(JSON.stringify(kept)).not.toContain('sEcReT');
  });

  it("every attribute named secret or *_secret is a one-time secret in every kept answer, marked or not (issue 39, finding 3: a webhook subscription's secret)", () => {
    const subscription = {
      data: {
        type: 'webhook-subscriptions',
        id: 's1',
        attributes: { url: 'https://hooks.example.com/in', secret: 'whsec_c2VjcmV0AbCd' },
      },
      included: [
        { type: 'future-things', id: 'f1', attributes: { signing_secret: 'abc-WXYZ', secretary: 'Ann' } },
      ],
    };
    const kept = JSON.parse(replayableBody(JSON.stringify(subscription), 'application/vnd.api+json'));
    expect(JSON.stringify(kept)).not.toContain('whsec_');
    expect(kept.data.attributes.secret).toBe('************AbCd');
    expect(kept.included[0].attributes).toEqual({ signing_secret: '************WXYZ', secretary: 'Ann' });
    expect(kept.meta.replay.omitted).toEqual([
      '/data/attributes/secret',
      '/included/0/attributes/signing_secret',
    ]);
  });

  it("a secret already shown masked (a key's PATCH answer) is kept as it is, and nothing is said omitted", () => {
    const shown = JSON.stringify({
      data: { type: 'service-account-keys', id: 'k1', attributes: { client_secret: '************1234' } },
    });
    expect(replayableBody(shown, 'application/vnd.api+json')).toBe(shown);
  });

  it('presigned addresses are removed, in data and included resources alike', () => {
    const document = {
      data: [{ type: 'documents', id: 'd1', meta: { upload: { url: 'https://s3/x?X-Amz-Signature=s' } } }],
      included: [{ type: 'exports', id: 'e1', meta: { download: { url: 'https://s3/y' }, other: 1 } }],
      meta: { kept: true },
    };
    const kept = JSON.parse(replayableBody(JSON.stringify(document), 'application/vnd.api+json'));
    expect(JSON.stringify(kept)).not.toContain('https://s3');
    expect(kept.included[0].meta).toEqual({ other: 1 });
    expect(kept.meta.kept).toBe(true);
    expect(kept.meta.replay.omitted).toEqual(['/data/0/meta/upload', '/included/0/meta/download']);
  });

  it('anything else is kept byte for byte', () => {
    const plain = JSON.stringify({ data: { type: 'teams', id: 't1', attributes: { name: 'x' } } });
    expect(replayableBody(plain, 'application/vnd.api+json')).toBe(plain);
    expect(replayableBody('not json', 'text/plain')).toBe('not json');
    expect(replayableBody('', undefined)).toBe('');
  });
});
