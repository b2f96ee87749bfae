/**
 * An SSO provider's `metadata`: either an OIDC discovery URL (https, ending in
 * /.well-known/openid-configuration) or the discovery document itself as JSON with at least `issuer`,
 * `authorization_endpoint` and `token_endpoint` as https URLs. Nothing is fetched: pure validation.
 */
const DISCOVERY_PATH = '/.well-known/openid-configuration';
const REQUIRED = ['issuer', 'authorization_endpoint', 'token_endpoint'] as const;

/** Where the local stack and the tests allow it, plain http to a loopback provider. */
export interface MetadataRules {
  loopbackHttp?: boolean;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

const httpsUrl = (value: unknown, { loopbackHttp = false }: MetadataRules): boolean => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    const secure =
      url.protocol === 'https:' || (loopbackHttp && url.protocol === 'http:' && LOOPBACK.test(url.hostname));
    return secure && url.username === '' && url.password === '';
  } catch {
    return false;
  }
};

/** Why the metadata is unusable, or null when it is acceptable. */
export const oidcMetadataProblem = (metadata: string, rules: MetadataRules = {}): string | null => {
  const text = metadata.trim();
  if (!text.startsWith('{')) {
    if (!httpsUrl(text, rules))
      return 'metadata must be an https discovery URL or an OIDC discovery document (JSON).';
    return new URL(text).pathname.endsWith(DISCOVERY_PATH)
      ? null
      : `A discovery URL ends in ${DISCOVERY_PATH}.`;
  }
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'metadata is neither a URL nor valid JSON.';
  }
  const missing = REQUIRED.filter((field) => !httpsUrl(document[field], rules));
  return missing.length > 0 ? `The discovery document needs https URLs for ${missing.join(', ')}.` : null;
};
