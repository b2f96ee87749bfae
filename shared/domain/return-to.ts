/**
 * Where a web app may have the browser sent back after signing in through an SSO provider: the provider's
 * `return_to_allow_list`. An entry is an absolute URL with no credentials, query or fragment: its origin
 * (scheme, host, port) must match exactly, and its path is a prefix at a segment boundary
 * (`https://app.example/signed-in` allows `/signed-in`, `/signed-in/…` and any query on them, never
 * `/signed-in-evil` nor another port or subdomain). A `return_to` is compared as the URL parser reads it
 * and the browser is sent to exactly that reading, so what is checked is what is followed; anything a
 * parser could read two ways (backslashes, whitespace, control characters, credentials) is refused
 * outright. Pure: no I/O.
 */

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const MAX_LENGTH = 2048;
/**
 * Printable ASCII without the backslash: URL parsers drop or reinterpret the rest (`\` becomes `/`, tabs
 * and newlines vanish), and a non-ASCII host or path is sent percent-encoded or as punycode by its app.
 */
const UNAMBIGUOUS = /^[\x21-\x5b\x5d-\x7e]+$/;

export interface ReturnToRules {
  /** Where the local stack and the tests allow it, plain http to a loopback web app. */
  loopbackHttp?: boolean;
}

const parsed = (value: string): URL | null =>
  value.length <= MAX_LENGTH && UNAMBIGUOUS.test(value) && URL.canParse(value) ? new URL(value) : null;

const secure = (url: URL, { loopbackHttp = false }: ReturnToRules) =>
  url.protocol === 'https:' || (loopbackHttp && url.protocol === 'http:' && LOOPBACK.test(url.hostname));

/** Why an allow-list entry is unusable, or null when it is acceptable. */
export const returnToEntryProblem = (entry: string, rules: ReturnToRules = {}): string | null => {
  const url = parsed(entry);
  if (!url || !secure(url, rules))
    return 'must be an absolute https URL, such as https://app.example/signed-in';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.search !== '' || url.hash !== '' || entry.endsWith('?') || entry.endsWith('#'))
    return 'must have no query or fragment: it allows the URLs under its path';
  return null;
};

const underPath = (path: string, prefix: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/**
 * The URL to send the browser to (the parser's reading of `returnTo`), or null when no entry of the
 * allow list allows it.
 */
export const allowedReturnTo = (returnTo: string, allowList: readonly string[]): string | null => {
  const url = parsed(returnTo);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  if (url.username !== '' || url.password !== '') return null;
  const allowed = allowList.some((entry) => {
    const allowedUrl = parsed(entry);
    return (
      allowedUrl !== null && allowedUrl.origin === url.origin && underPath(url.pathname, allowedUrl.pathname)
    );
  });
  return allowed ? url.href : null;
};
