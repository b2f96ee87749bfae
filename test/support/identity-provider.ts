/**
 * The local OpenID provider from a test file's side. It runs in the global setup's process
 * (infra/local/identity-provider.ts), so a test adds its own accounts and registers its own clients over
 * the provider's loopback admin endpoint, and signs in with plain HTTP as a browser would.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { IdentityProviderAccount, IdentityProviderClient } from '../../infra/local/identity-provider';

export const oidcIssuer = inject('oidcIssuer');
/** The provider record's `metadata` as a URL. */
export const oidcDiscoveryUrl = `${oidcIssuer}/.well-known/openid-configuration`;

const admin = async (path: string, body: object) => {
  const response = await fetch(`${oidcIssuer}/admin/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
};

/** An account the provider signs in by its e-mail; `sub` is a fresh UUID unless given. */
export const addAccount = async (
  account: Omit<IdentityProviderAccount, 'sub'> & { sub?: string },
): Promise<IdentityProviderAccount> => {
  const added = { sub: randomUUID(), email_verified: true, ...account };
  await admin('accounts', added);
  return added;
};

/** A client of the provider (public without `client_secret`); its id is a fresh UUID unless given. */
export const registerClient = async (
  client: Omit<IdentityProviderClient, 'client_id'> & { client_id?: string },
): Promise<IdentityProviderClient & { client_id: string }> => {
  const registered = { client_id: randomUUID(), ...client };
  await admin('clients', registered);
  return registered;
};

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
