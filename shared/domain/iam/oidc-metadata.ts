/**
 * An SSO provider's `metadata`: either an OIDC discovery URL (https, ending in
 * /.well-known/openid-configuration) or the discovery document itself as JSON with at least `issuer`,
 * `authorization_endpoint` and `token_endpoint` as https URLs. Nothing is fetched: pure validation.
 */
const DISCOVERY_PATH = '/.well-known/openid-configuration';
const REQUIRED = ['issuer', 'authorization_endpoint', 'token_endpoint'] as const;

const httpsUrl = (value: unknown): boolean => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
};

/** Why the metadata is unusable, or null when it is acceptable. */
export const oidcMetadataProblem = (metadata: string): string | null => {
  const text = metadata.trim();
  if (!text.startsWith('{')) {
    if (!httpsUrl(text))
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
  const missing = REQUIRED.filter((field) => !httpsUrl(document[field]));
  return missing.length > 0 ? `The discovery document needs https URLs for ${missing.join(', ')}.` : null;
};
