import { describe, expect, it } from 'vitest';
import { allowedReturnTo, returnToEntryProblem } from '#shared/domain/return-to';

const list = ['https://app.northmere.example/signed-in', 'https://portal.northmere.example/'];

describe('return_to after SSO sign-in: exact origin, and a path under an allow-list entry', () => {
  it('allows the entry itself, paths under it and any query on them; answers the parsed URL', () => {
    expect(allowedReturnTo('https://app.northmere.example/signed-in', list)).toBe(
      'https://app.northmere.example/signed-in',
    );
    expect(allowedReturnTo('https://app.northmere.example/signed-in/deep?tab=2', list)).toBe(
      'https://app.northmere.example/signed-in/deep?tab=2',
    );
    expect(allowedReturnTo('https://portal.northmere.example/anything#x', list)).toBe(
      'https://portal.northmere.example/anything#x',
    );
  });

  it('refuses other schemes, origins, ports, subdomains, sibling paths and traversal out of the path', () => {
    for (const refused of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://app.northmere.example/signed-in',
      'https://app.northmere.example:8443/signed-in',
      'https://evil.example/signed-in',
      'https://app.northmere.example.evil.example/signed-in',
      'https://evil.app.northmere.example/signed-in',
      'https://app.northmere.example/signed-in-evil',
      'https://app.northmere.example/signed-in/../admin',
      'https://app.northmere.example/signed-in/%2e%2e/admin',
      'https://app.northmere.example/',
      '//evil.example/signed-in',
      '/signed-in',
      'not a url',
    ])
      expect(allowedReturnTo(refused, list), refused).toBeNull();
  });

  it('refuses userinfo and anything a parser could read two ways (backslashes, whitespace, controls)', () => {
    for (const refused of [
      'https://app.northmere.example@evil.example/signed-in',
      'https://user:pw@app.northmere.example/signed-in',
      'https://evil.example\\@app.northmere.example/signed-in',
      'https://app.northmere.example\\signed-in',
      'https://app.northmere.example/signed-in\n',
      'https://app.northmere.example/sig\tned-in',
      ' https://app.northmere.example/signed-in',
      `https://app.northmere.example/signed-in/${'a'.repeat(2048)}`,
    ])
      expect(allowedReturnTo(refused, list), JSON.stringify(refused)).toBeNull();
  });

  it('an empty allow-list allows nothing', () => {
    expect(allowedReturnTo('https://app.northmere.example/signed-in', [])).toBeNull();
  });

  it('allow-list entries are absolute https URLs without credentials, query or fragment', () => {
    expect(returnToEntryProblem('https://app.northmere.example/signed-in')).toBeNull();
    for (const bad of [
      'http://app.northmere.example/',
      'javascript:alert(1)',
      'https://u:p@app.northmere.example/',
      'https://app.northmere.example/?next=x',
      'https://app.northmere.example/#x',
      'app.northmere.example',
    ])
      expect(returnToEntryProblem(bad), bad).not.toBeNull();
    expect(returnToEntryProblem('http://127.0.0.1:3000/app', { loopbackHttp: true })).toBeNull();
    expect(returnToEntryProblem('http://127.0.0.1:3000/app')).not.toBeNull();
  });
});
