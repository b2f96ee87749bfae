/**
 * The headers every API response carries (issue 15, finding 6; OWASP REST Security Cheat Sheet), checked
 * on every response any API test sees. Only a public route may choose its own caching for what it
 * answers (the JWKS does); its errors are no-store like any other.
 */
import { expect } from 'vitest';
import { routes } from '../../shared/routes';

const EXPECTED = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

/** The JWKS and the files public routes serve as they are (the OpenAPI document, the docs page). */
const OWN_CACHING = new Map([
  ['/.well-known/jwks.json', 'public, max-age=300'],
  ...routes.filter((route) => route.files).map((route) => [route.path, 'public, max-age=300'] as const),
]);

export const expectSecurityHeaders = (headers: Headers, path: string, status: number) => {
  const label = `security headers of ${path}`;
  for (const [name, value] of Object.entries(EXPECTED))
    expect(headers.get(name), `${label}: ${name}`).toBe(value);
  expect(headers.get('cache-control'), `${label}: cache-control`).toBe(
    (status === 200 && OWN_CACHING.get(path)) || 'no-store',
  );
  expect(headers.get('server'), `${label}: server`).toBeNull();
  expect(headers.get('x-powered-by'), `${label}: x-powered-by`).toBeNull();
};
