/**
 * Issue 39: every parameter of every operation in the generated OpenAPI document says what it takes (a
 * schema with a type), and the document's query parameters agree with the parsers: each collection
 * route's options (its declaration's, or its handler's own) are run through the collection parser, and
 * each parameter a handler declares itself through `requireOwnParameters`. test/api/collection-features
 * drives the same rule through the API, route by route.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OpenAPIObject, ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_ENDPOINTS } from '#shared/engine/area';
import {
  type CollectionOptions,
  indexedFilterNames,
  parseCollectionQuery,
} from '#shared/jsonapi/collection-query';
import { ValidationError } from '#shared/jsonapi/errors';
import { type OwnQueryParameters, requireOwnParameters } from '#shared/jsonapi/own-query-parameters';
import { type Route, routes } from '#shared/routes';
import { openApiDocument } from '../../infra/openapi/document';
import { REPOSITORY_ROOT } from '../../infra/repository';

let document: OpenAPIObject;
/** Per route: the collection options its parser reads, and the query parameters its handler declares. */
const parsers = new Map<Route, { options?: CollectionOptions; own?: OwnQueryParameters }>();

beforeAll(async () => {
  document = await openApiDocument();
  for (const route of routes as readonly Route[]) {
    const module =
      route.handler === GENERIC_ENDPOINTS
        ? {}
        : ((await import(pathToFileURL(resolve(REPOSITORY_ROOT, route.handler)).href)) as {
            collectionOptions?: CollectionOptions;
            queryParameters?: OwnQueryParameters;
          });
    const collection = route.method === 'GET' && route.query === undefined;
    parsers.set(route, {
      ...(collection && {
        options:
          module.collectionOptions ??
          (route.declared?.operation === 'list' ? route.declared.resource.collection : undefined),
      }),
      own: module.queryParameters,
    });
  }
}, 60_000);

const parametersOf = (route: Route): ParameterObject[] =>
  (document.paths?.[route.path]?.[route.method.toLowerCase() as 'get']?.parameters ??
    []) as ParameterObject[];
const queryOf = (route: Route) => parametersOf(route).filter((p) => p.in === 'query');

/**
 * What a route's parsers make of a query: its own parameters' check, then the collection parser over the
 * rest (as the handlers hand it over, `without` their own).
 */
const parse = (route: Route, query: Record<string, string>) => () => {
  const { options, own = {} } = parsers.get(route) ?? {};
  requireOwnParameters(query, own);
  const rest = Object.fromEntries(Object.entries(query).filter(([name]) => !Object.hasOwn(own, name)));
  if (options) parseCollectionQuery(rest, options);
};

/** The parameter a 400 names, or undefined when the parser took the query. */
const refusal = (parse: () => unknown): string | undefined => {
  try {
    parse();
    return undefined;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.toErrorObject().source?.parameter;
  }
};

describe('OpenAPI document: query parameters', () => {
  it('every parameter of every operation has a schema with a type', () => {
    const all = (routes as readonly Route[]).flatMap((route) =>
      parametersOf(route).map((p) => ({
        at: `${route.id} ${p.in} ${p.name}`,
        schema: p.schema as SchemaObject,
      })),
    );
    expect(all.length).toBeGreaterThan(1000);
    expect(all.filter(({ schema }) => typeof schema?.type !== 'string').map(({ at }) => at)).toEqual([]);
  });

  it('sort is a string of the declared sort fields, each with or without `-`, every one of which the parser takes', () => {
    let checked = 0;
    for (const [route, { options }] of parsers) {
      if (!options || Object.keys(options.sorts).length === 0) continue;
      const sort = queryOf(route).find((p) => p.name === 'sort');
      const schema = sort?.schema as SchemaObject;
      expect(schema?.type, route.id).toBe('string');
      expect(schema.enum, route.id).toEqual(Object.keys(options.sorts).flatMap((f) => [f, `-${f}`]));
      for (const value of schema.enum ?? []) {
        expect(
          refusal(parse(route, { ...requiredFilled(route), sort: value })),
          `${route.id} sort=${value}`,
        ).toBe(undefined);
      }
      expect(refusal(parse(route, { ...requiredFilled(route), sort: 'no_such_field' }))).toBe('sort');
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(58);
  });

  it('a boolean-like filter is a string of true or false: what the parser takes, and nothing else', () => {
    let checked = 0;
    for (const [route, { options }] of parsers) {
      for (const [field, filter] of Object.entries(options?.filters ?? {})) {
        if (filter.type !== 'boolean' || !options) continue;
        const name = `filter[${field}]`;
        const documented = queryOf(route).find((p) => p.name === name);
        expect(documented?.schema, `${route.id} ${name}`).toEqual({
          type: 'string',
          enum: ['true', 'false'],
        });
        // Beside an indexed filter where the collection has any: alone, a filter that is not indexed is refused.
        const [indexed] = indexedFilterNames(options.filters);
        const others = {
          ...requiredFilled(route),
          ...(indexed && {
            [`filter[${indexed}]`]: /\.(since|until)$/.test(indexed) ? '2026-01-01T00:00:00Z' : 'x',
          }),
        };
        for (const value of ['true', 'false'])
          expect(refusal(parse(route, { ...others, [name]: value }))).toBe(undefined);
        expect(refusal(parse(route, { ...others, [name]: 'yes' }))).toBe(name);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('what the parser requires, the document marks required, and nothing more', () => {
    const requiredSeen: string[] = [];
    for (const route of parsers.keys()) {
      const required = queryOf(route).filter((p) => p.required);
      requiredSeen.push(...required.map((p) => `${route.id} ${p.name}`));
      const filled = requiredFilled(route);
      // The parsers take a query of the documented required parameters alone (none, for most routes) ...
      expect(refusal(parse(route, filled)), route.id).toBe(undefined);
      // ... and refuse it without any one of them, or with one shorter than documented, naming it.
      for (const { name, schema } of required) {
        const { [name]: _, ...without } = filled;
        expect(refusal(parse(route, without)), `${route.id} without ${name}`).toBe(name);
        const minLength = (schema as SchemaObject).minLength ?? 1;
        const short = { ...without, [name]: 'x'.repeat(minLength - 1) };
        expect(refusal(parse(route, short)), `${route.id} ${name}=${short[name]}`).toBe(name);
      }
    }
    expect(requiredSeen.sort()).toEqual([
      'evaluateQualificationSpecification filter[person]',
      'listComments filter[subject_id]',
      'searchProjects filter[prefix]',
    ]);
  });
});

/** A value for each query parameter the document marks required, as long as its schema asks. */
const requiredFilled = (route: Route): Record<string, string> =>
  Object.fromEntries(
    queryOf(route)
      .filter((p) => p.required)
      .map((p) => [p.name, 'x'.repeat(Math.max(2, (p.schema as SchemaObject).minLength ?? 1))]),
  );
