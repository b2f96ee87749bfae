/**
 * The response headers OWASP's REST Security Cheat Sheet asks of an API, on every response, errors
 * included (this runs after the error middleware has rendered one):
 * - `Cache-Control: no-store`: nothing an API answers is for a shared or browser cache to keep. Only a
 *   public route may set its own caching (the JWKS: public keys, five minutes); an authenticated route
 *   cannot weaken it, and the token endpoint keeps `no-store` as RFC 6749 §5.1 requires.
 * - `X-Content-Type-Options: nosniff`, so a JSON body is never sniffed into something a browser runs.
 * - `Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY` (for browsers that
 *   predate CSP): no response is ever framed. An HTML response (the docs page) gets a full policy
 *   (`PAGE_POLICY`): it is the one thing the API serves that a browser runs; a route's own page (the
 *   unsubscribe link's, `Answer.page`) runs nothing and posts one form back (`FORM_PAGE_POLICY`).
 * - `Strict-Transport-Security`: the API is served over HTTPS only (API Gateway has no plain-HTTP
 *   listener), so browsers are told to keep it that way for a year, subdomains included; no `preload`,
 *   which is a decision for the owner of the custom domain.
 * - no fingerprinting: `Server` and `X-Powered-By` are removed should anything set them.
 * A tiny middleware rather than `@middy/http-security-headers`: that one targets HTML pages (a full CSP,
 * Permissions-Policy, COEP/COOP/CORP, Report-To, …: 17 headers by default, most to switch off for an
 * API), sets no `Cache-Control` (a second middleware would be needed) and adds 5.7 KB minified.
 */

import type { ApiMiddleware } from '../api-context';
import type { Route } from '../route';

export const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
} as const;

/**
 * The docs page (Swagger UI) runs the renderer and its configuration from this origin only (no inline
 * script, no eval), takes its stylesheet from this origin only (no inline styles: React sets style
 * properties through the DOM, which CSP does not govern), shows only its stylesheet's `data:` images,
 * loads no font, and fetches only from this origin (the OpenAPI document, "try it" requests, the OAuth
 * token): anything from elsewhere is refused by the browser, not merely missing.
 */
export const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A route's own page (`Answer.page`: the unsubscribe link's) runs nothing and loads nothing: no script, no
 * style, no image, no font, no fetch; its one form posts only to this origin (the same URL).
 */
export const FORM_PAGE_POLICY = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const FINGERPRINTS = new Set(['server', 'x-powered-by']);

type Apply = NonNullable<ApiMiddleware['after']>;

export const securityHeaders = (route: Route): ApiMiddleware => {
  const replaced = new Set(Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()));
  if (route.auth.length === 0) replaced.delete('cache-control');
  const apply: Apply = (request) => {
    if (!request.response) return;
    const kept = Object.entries(request.response.headers ?? {}).filter(
      ([name]) => !replaced.has(name.toLowerCase()) && !FINGERPRINTS.has(name.toLowerCase()),
    );
    const cacheControl = kept.some(([name]) => name.toLowerCase() === 'cache-control');
    const html = kept.some(
      ([name, value]) => name.toLowerCase() === 'content-type' && /^text\/html\b/i.test(String(value)),
    );
    const { 'Cache-Control': noStore, ...others } = SECURITY_HEADERS;
    request.response.headers = {
      ...Object.fromEntries(kept),
      ...others,
      ...(html && { 'Content-Security-Policy': route.answers?.page ? FORM_PAGE_POLICY : PAGE_POLICY }),
      ...(!cacheControl && { 'Cache-Control': noStore }),
    };
  };
  return { after: apply, onError: apply };
};
