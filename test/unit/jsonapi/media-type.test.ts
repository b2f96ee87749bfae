import { describe, expect, it } from 'vitest';
import { NotAcceptableError, UnsupportedMediaTypeError } from '#shared/jsonapi/errors';
import { asksForHtml, checkAccept, checkContentType } from '#shared/jsonapi/media-type';

describe('JSON:API 1.1 content negotiation', () => {
  it('accepts a request body sent as application/vnd.api+json, with or without a profile', () => {
    expect(() => checkContentType('application/vnd.api+json')).not.toThrow();
    expect(() => checkContentType('application/vnd.api+json; profile="https://example.com/p"')).not.toThrow();
  });

  it('415 for a JSON:API media type with parameters other than ext/profile, or an unsupported ext', () => {
    expect(() => checkContentType('application/vnd.api+json; charset=utf-8')).toThrow(
      UnsupportedMediaTypeError,
    );
    expect(() => checkContentType('application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"')).toThrow(
      UnsupportedMediaTypeError,
    );
  });

  it('415 for a body in any other media type', () => {
    expect(() => checkContentType('application/json')).toThrow(UnsupportedMediaTypeError);
    expect(() => checkContentType(undefined)).toThrow(UnsupportedMediaTypeError);
  });

  it('406 when every JSON:API media type in Accept carries parameters', () => {
    expect(() => checkAccept('application/vnd.api+json; charset=utf-8')).toThrow(NotAcceptableError);
    expect(() => checkAccept('application/vnd.api+json; ext="x", application/vnd.api+json; foo=1')).toThrow(
      NotAcceptableError,
    );
  });

  it('no 406 when at least one JSON:API instance is plain, or Accept names other types only', () => {
    expect(() =>
      checkAccept('application/vnd.api+json; charset=utf-8, application/vnd.api+json'),
    ).not.toThrow();
    expect(() => checkAccept('application/vnd.api+json; q=0.9')).not.toThrow();
    expect(() => checkAccept('*/*')).not.toThrow();
    expect(() => checkAccept(undefined)).not.toThrow();
  });
});

describe('a page for a person: asksForHtml', () => {
  it('a browser following a link or posting a form asks for HTML; a mail client, an API client, or text/html refused (q=0) does not', () => {
    expect(asksForHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(asksForHtml('text/html')).toBe(true);
    expect(asksForHtml(undefined)).toBe(false);
    expect(asksForHtml('*/*')).toBe(false);
    expect(asksForHtml('application/vnd.api+json, text/html')).toBe(false);
    expect(asksForHtml('text/html;q=0, */*')).toBe(false);
    expect(asksForHtml('text/html;q=0.000')).toBe(false);
  });
});
