/**
 * The headers every API response carries (issue 15, finding 6; OWASP REST Security Cheat Sheet), checked
 * on every response any API test sees. Only a public route may choose its own caching for what it
 * answers (the JWKS does); its errors are no-store like any other.
 */
import { expect } from 'vitest';
import { routes } from '#shared/routes';

const EXPECTED = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

/**
 * The docs page runs scripts and fetches from this origin only, loads nothing from
 * elsewhere, and is never framed; every other response only forbids framing.
 */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A route's own page for a person in a browser (the unsubscribe link's, `Answer.page`) runs nothing,
 * loads nothing, and posts its one form only to this origin.
 */
const FORM_PAGE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const FORM_PAGES = routes
  .filter((route) => route.answers?.page)
  .map((route) => new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`));

/** The JWKS and the files public routes serve as they are (the OpenAPI document, the docs page). */
const OWN_CACHING = new Map([
  ['/.well-known/jwks.json', 'public, max-age=300'],
  ...routes.filter((route) => route.files).map((route) => [route.path, 'public, max-age=300'] as const),
]);

export const expectSecurityHeaders = (headers: Headers, path: string, status: number) => {
  const label = `security headers of ${path}`;
  for (const [name, value] of Object.entries(EXPECTED))
    expect(headers.get(name), `${label}: ${name}`).toBe(value);
  expect(headers.get('content-security-policy'), `${label}: content-security-policy`).toBe(
    headers.get('content-type')?.startsWith('text/html')
      ? FORM_PAGES.some((page) => page.test(path))
        ? FORM_PAGE_POLICY
        : PAGE_POLICY
      : "frame-ancestors 'none'",
  );
  expect(headers.get('cache-control'), `${label}: cache-control`).toBe(
    (status === 200 && OWN_CACHING.get(path)) || 'no-store',
  );
  expect(headers.get('server'), `${label}: server`).toBeNull();
  expect(headers.get('x-powered-by'), `${label}: x-powered-by`).toBeNull();
};
