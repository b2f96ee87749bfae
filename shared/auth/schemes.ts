/** Security schemes of the spec's Authentication section, as routes name them. */
export type AuthScheme = 'OAuth2' | 'Session' | 'Cookie';
