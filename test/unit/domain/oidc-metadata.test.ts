import { describe, expect, it } from 'vitest';
import { oidcMetadataProblem } from '#functions/iam/rules/oidc-metadata';

const document = {
  issuer: 'https://login.example.com',
  authorization_endpoint: 'https://login.example.com/authorize',
  token_endpoint: 'https://login.example.com/token',
};

describe('SSO provider metadata is OIDC discovery metadata or a discovery URL', () => {
  it('accepts a discovery URL and a discovery document', () => {
    expect(oidcMetadataProblem('https://login.example.com/.well-known/openid-configuration')).toBeNull();
    expect(oidcMetadataProblem(JSON.stringify(document))).toBeNull();
  });

  it('refuses plain http, credentials in the URL, other paths and non-URLs', () => {
    for (const bad of [
      'http://login.example.com/.well-known/openid-configuration',
      'https://user:pw@login.example.com/.well-known/openid-configuration',
      'https://login.example.com/metadata.xml',
      'not a url',
    ]) {
      expect(oidcMetadataProblem(bad), bad).not.toBeNull();
    }
  });

  it('refuses a document missing an endpoint or with a non-https one', () => {
    expect(oidcMetadataProblem(JSON.stringify({ ...document, token_endpoint: undefined }))).toMatch(
      /token_endpoint/,
    );
    expect(oidcMetadataProblem(JSON.stringify({ ...document, issuer: 'http://x.example' }))).toMatch(
      /issuer/,
    );
    expect(oidcMetadataProblem('{not json')).toMatch(/JSON/);
  });
});
