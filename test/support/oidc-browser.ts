/**
 * A browser at an OpenID provider's sign-in, in plain HTTP: what a test or the people scenario does where
 * a person would click through. Kept apart from the test runner (no vitest import), so
 * `npm run scenario:people` uses it against `npm start` too.
 */

/** The provider's cookies, by name. Paths are ignored: its cookies have distinct names. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(at + 1).trim());
    }
  }

  get header() {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Signs in at the provider as `email`: follows the authorization request, answers the login form, and
 * returns the URL the provider finally redirects to (the relying party's redirect_uri with `code` and
 * `state`, or with `error`) without requesting it. Throws if the provider refuses, e.g. an unknown e-mail.
 */
export const loginAt = async (authorizeUrl: string, email: string): Promise<string> => {
  const provider = new URL(authorizeUrl).origin;
  const jar = new CookieJar();
  let url = authorizeUrl;
  let init: RequestInit = {};
  let signedIn = false;
  for (let hop = 0; hop < 10; hop += 1) {
    if (new URL(url).origin !== provider) return url;
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: jar.header },
    });
    jar.take(response);
    init = {};
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*\saction="([^"]+)"/.exec(page)?.[1];
    if (response.status !== 200 || !action || signedIn) {
      throw new Error(`login at ${url} as ${email}: ${response.status} ${page.slice(0, 300)}`);
    }
    // The login form: post the e-mail where the form says.
    signedIn = true;
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    };
  }
  throw new Error(`login at ${authorizeUrl}: too many redirects`);
};
