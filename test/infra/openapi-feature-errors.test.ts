/**
 * Issue 41, item 5: an organisation may switch an area off, and then its routes answer 403 `FEATURE.001`.
 * The generated OpenAPI document says so where it lists each operation's errors: the 403 of every route
 * of a switchable area is `Error403Feature`, which names FEATURE.001 beside AUTH.002, and no other route's.
 */
import type { OpenAPIObject, OperationObject, ReferenceObject } from 'openapi3-ts/oas31';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Route, routes } from '#shared/routes';
import { openApiDocument } from '../../infra/openapi/document';

let document: OpenAPIObject;
beforeAll(async () => {
  document = await openApiDocument();
}, 60_000);

const forbiddenOf = (route: Route) => {
  const operation = document.paths?.[route.path]?.[route.method.toLowerCase() as 'get'] as OperationObject;
  return (operation.responses?.['403'] as ReferenceObject | undefined)?.$ref;
};

describe('the document names FEATURE.001 where it can be answered', () => {
  it('every authenticated route of a switchable area answers 403 as Error403Feature, every other as Error403', () => {
    const authenticated = (routes as readonly Route[]).filter((route) => route.auth.length > 0);
    const switchable = authenticated.filter((route) => route.feature !== undefined);
    expect(switchable.length).toBeGreaterThan(0);
    for (const route of authenticated)
      expect(forbiddenOf(route), route.id).toBe(
        `#/components/responses/Error403${route.feature ? 'Feature' : ''}`,
      );
    const response = document.components?.responses?.Error403Feature;
    expect(response?.description).toContain('FEATURE.001');
    expect(response?.description).toContain('AUTH.002');
  });
});
