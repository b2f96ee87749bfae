/**
 * The OpenAPI 3.1 document, generated from the route table and the code that serves it, never written
 * by hand: each route's path, parameters, security and tag from its declaration; request bodies from the
 * zod schemas the handlers parse (a handler module's `requestBody`, or the declaration's writes for a
 * generic endpoint); responses from what the route answers (its operation, or the entry's `answers`) and
 * the errors its declaration makes possible; request examples from the areas' `examples.ts`, the bodies
 * the tests send. Built at synth time and by `npm run openapi`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  HeadersObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathsObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import * as z from 'zod';
import { SESSION_COOKIE } from '#shared/auth/sessions';
import { GENERIC_ENDPOINTS } from '#shared/engine/area';
import type { RequestExample } from '#shared/engine/examples';
import { clientVerbs } from '#shared/engine/lifecycle';
import { readShape } from '#shared/engine/read-attributes';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { declaredCrud } from '#shared/engine/simple-crud';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX,
  REPLAYED_HEADER,
  takesIdempotencyKey,
} from '#shared/http/middlewares/idempotency';
import { ROLE_ID } from '#shared/http/middlewares/path-parameters';
import { parameterNames } from '#shared/http/path-template';
import { preconditionTarget } from '#shared/http/preconditions';
import type { Answer, Route } from '#shared/http/route';
import {
  type CollectionOptions,
  type FilterOption,
  includeOptions,
  indexedFilterNames,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
} from '#shared/jsonapi/collection-query';
import { JSONAPI_MEDIA_TYPE } from '#shared/jsonapi/document';
import type { OwnQueryParameter, OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';
import { answeredTypes, resourceTypes, routes } from '#shared/routes';
import { answerOf, includedTypes, typesOf } from '../answered-types';
import { REPOSITORY_ROOT } from '../repository';
import { DOCUMENT_NOW, documentIds, loadRequestExamples } from '../request-examples';
import { anyOf, envelopeSchemas, identifierSchema, ref, resourceSchema } from './json-api';
import { describedTags } from './tag-descriptions';

export const API_VERSION = '1.1.0';

/**
 * What a handler module may say about itself beyond its handler: the schemas of what it takes and gives
 * (zod or zod/mini: the token endpoint parses its form with zod/mini).
 */
interface HandlerContract {
  requestBody?: z.core.$ZodType;
  responseBody?: z.core.$ZodType;
  /** The query features of a collection that is not its declaration's (a key list, a history). */
  collectionOptions?: CollectionOptions;
  /** Query parameters a handler parses by its own rules (the roll-ups' filter expression), as it declares them. */
  queryParameters?: OwnQueryParameters;
  /**
   * Errors the handler answers itself, not as JSON:API (the token endpoint's RFC 6749 §5.2 errors): their
   * media type, schema and statuses. The middlewares before it still refuse in JSON:API.
   */
  errorBody?: { media: string; schema: z.core.$ZodType; statuses: readonly number[] };
}

const toSchema = (schema: z.core.$ZodType, io: 'input' | 'output'): SchemaObject => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return json as SchemaObject;
};

/** The whole declaration of a declared endpoint's type (a route names only what the HTTP layer reads). */
const declaredDefinition = (type: string): ResourceDefinition => {
  const definition = resourceTypes.get(type);
  if (!definition) throw new Error(`${type} is not a declared type`);
  return definition;
};

const contractOf = async (route: Route): Promise<HandlerContract> => {
  if (route.handler === GENERIC_ENDPOINTS) {
    const operation = route.declared?.operation;
    if (route.declared?.operation === 'transition') {
      const { verb } = route.declared;
      const input = declaredDefinition(route.declared.resource.type).lifecycle?.transitions[verb]?.input;
      return input ? { requestBody: await input() } : {};
    }
    if (operation !== 'create' && operation !== 'update') return {};
    return {
      requestBody: (await declaredCrud(declaredDefinition(route.declared?.resource.type ?? ''))).documents[
        operation
      ],
    };
  }
  return (await import(pathToFileURL(resolve(REPOSITORY_ROOT, route.handler)).href)) as HandlerContract;
};

/** `equipment-items` → `EquipmentItems`: the name of a type's schema under `components.schemas`. */
const schemaName = (type: string) =>
  type.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase());

/** Path parameters are always required; a query parameter when the code that parses it requires it. */
const parameter = (
  name: string,
  where: 'path' | 'query',
  schema: SchemaObject,
  description?: string,
  required = where === 'path',
): ParameterObject => ({
  name,
  in: where,
  ...(required && { required: true }),
  schema,
  ...(description && { description }),
});

/** A parameter a handler parses itself, from its declaration (`shared/jsonapi/own-query-parameters.ts`). */
const ownParameter = (name: string, declared: OwnQueryParameter | undefined): ParameterObject =>
  parameter(
    name,
    'query',
    // An empty value counts as none (`requireOwnParameters`).
    { type: 'string', ...(declared?.required && { minLength: 1 }), ...declared?.schema } as SchemaObject,
    declared?.description,
    declared?.required === true,
  );

/** An equality filter: required, at least so long, or true/false, as its declaration says to the parser. */
/** What an equality filter takes: `true`/`false`, a polymorphic link's `<type>:<id>` or type, or text. */
const equalitySchema = (filter: FilterOption): SchemaObject => {
  if (filter.type === 'boolean') return { type: 'string', enum: ['true', 'false'] };
  if (filter.link?.part === 'type') return { type: 'string', enum: [...filter.link.types] };
  if (filter.link) return { type: 'string', pattern: `^(${filter.link.types.join('|')}):[0-9a-f-]{36}$` };
  return { type: 'string', minLength: filter.minLength ?? 1 };
};

/**
 * On a collection with indexed filters (`FilterOption.index`), what a filter costs: read from its index, or
 * taken only beside an indexed one (alone it is 400, `collection-query.ts`).
 */
const indexNote = (filter: FilterOption, indexed: readonly string[]): string[] => {
  if (indexed.length === 0) return [];
  if (filter.index) return ['Indexed: read from its index, never the whole collection.'];
  return [`Only beside an indexed filter (${indexed.join(', ')}): alone it is refused with 400.`];
};

const equalityFilter = (field: string, filter: FilterOption, indexed: readonly string[]): ParameterObject => {
  const schema = equalitySchema(filter);
  const description = [
    filter.description ??
      `Exact equality on ${field}${filter.type === 'boolean' ? ': `true` or `false`' : ''}.`,
    ...(filter.required ? ['Required: the collection is not read without it.'] : []),
    ...indexNote(filter, indexed),
  ].join(' ');
  return parameter(`filter[${field}]`, 'query', schema, description, filter.required === true);
};

const pageParameters = (cursor: boolean): ParameterObject[] => {
  const limit = { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT } as const;
  const offset = { type: 'integer', minimum: 0, default: 0 } as const;
  return [
    parameter('limit', 'query', limit, 'Page size; caps `data`, not `included`.'),
    parameter('offset', 'query', offset, 'Resources to skip (reads every one of them: see `page[cursor]`).'),
    parameter('page[limit]', 'query', limit, 'As `limit`; wins when both are sent.'),
    parameter('page[offset]', 'query', offset, 'As `offset`; wins when both are sent.'),
    ...(cursor
      ? [
          parameter(
            'page[cursor]',
            'query',
            { type: 'string' },
            'Pages by cursor instead of offset: empty for the first page, then `links.next` of the page before. Reads only the page, at any depth; not with `offset`.',
          ),
        ]
      : []),
  ];
};

const includeParameter = (options: readonly string[]): ParameterObject[] =>
  options.length === 0
    ? []
    : [
        parameter(
          'include',
          'query',
          { type: 'string', examples: [options.join(',')] },
          `Comma-separated relationship paths, each one of: ${includeOptions(options).join(', ')}. Related resources appear in \`included\`.`,
        ),
      ];

const collectionParameters = (options: CollectionOptions): ParameterObject[] => [
  ...Object.entries(options.filters).flatMap(([field, filter]): ParameterObject[] => {
    const indexed = indexedFilterNames(options.filters);
    if (filter.kind === 'time') {
      const time: SchemaObject = { type: 'string', format: 'date-time' };
      const note = indexNote(filter, indexed);
      return [
        parameter(
          `filter[${field}.since]`,
          'query',
          time,
          [`Only records whose ${field} is at or after this time.`, ...note].join(' '),
        ),
        parameter(
          `filter[${field}.until]`,
          'query',
          time,
          [`Only records whose ${field} is at or before this time.`, ...note].join(' '),
        ),
      ];
    }
    if (filter.kind === 'box') {
      const corner: SchemaObject = { type: 'string', pattern: '^-?\\d{1,3}(\\.\\d+)?,-?\\d{1,3}(\\.\\d+)?$' };
      return [
        parameter(`filter[${field}.box.bottom_left]`, 'query', corner, 'latitude,longitude; with top_right.'),
        parameter(`filter[${field}.box.top_right]`, 'query', corner, 'latitude,longitude; with bottom_left.'),
      ];
    }
    return [equalityFilter(field, filter, indexed)];
  }),
  ...(Object.keys(options.sorts).length === 0
    ? []
    : [
        parameter(
          'sort',
          'query',
          {
            type: 'string',
            enum: Object.keys(options.sorts).flatMap((field) => [field, `-${field}`]),
            default: options.defaultSort,
          },
          `One field, \`-\` before it for descending: ${Object.keys(options.sorts).join(', ')}; ${options.defaultSort} by default. A comma list is taken, but only its first field is applied.`,
        ),
      ]),
  ...includeParameter(options.includes),
  ...pageParameters(true),
];

/** Path ids are UUIDs, and a role's may be a built-in role's name: what the path-parameter check accepts. */
const pathParameterSchema = (name: string): SchemaObject => {
  const uuid: SchemaObject = { type: 'string', format: 'uuid' };
  if (!name.endsWith('_id')) return { type: 'string' };
  return name === 'role_id'
    ? { type: 'string', anyOf: [uuid, { type: 'string', pattern: ROLE_ID.source }] }
    : uuid;
};

const pathParameters = (route: Route): ParameterObject[] =>
  parameterNames(route.path).map((name) => parameter(name, 'path', pathParameterSchema(name)));

const queryParameters = (route: Route, answer: Answer, contract: HandlerContract): ParameterObject[] => {
  if (route.query !== undefined)
    return route.query.map((name) => ownParameter(name, contract.queryParameters?.[name]));
  if (route.method !== 'GET') return [];
  const definition = route.declared?.resource;
  if (answer.collection !== undefined) {
    const options = contract.collectionOptions ?? definition?.collection;
    const own = Object.entries(contract.queryParameters ?? {}).map(([name, declared]) =>
      ownParameter(name, declared),
    );
    return [...own, ...(options ? collectionParameters(options) : pageParameters(false))];
  }
  return includeParameter(definition?.collection?.includes ?? []);
};

const jsonApiContent = (schema: SchemaObject) => ({ [JSONAPI_MEDIA_TYPE]: { schema } });

const documentSchema = (properties: Record<string, SchemaObject>, required: string[]): SchemaObject => ({
  type: 'object',
  properties: { jsonapi: ref('JsonApi'), ...properties },
  required: ['jsonapi', ...required],
  additionalProperties: false,
});

const includedSchema = (types: readonly string[]): Record<string, SchemaObject> =>
  types.length === 0
    ? {}
    : {
        included: {
          type: 'array',
          items: anyOf(types.map(schemaName)),
          description: 'Resources named by `include`.',
        },
      };

const successBody = (route: Route, answer: Answer, contract: HandlerContract): ResponseObject => {
  const [type = ''] = [answer.resource ?? answer.collection ?? []].flat();
  const definition = resourceTypes.get(route.declared?.resource.type ?? type);
  const included = includedTypes(
    definition,
    contract.collectionOptions?.includes ?? definition?.collection?.includes ?? [],
  );
  const described = (description: string, content?: ResponseObject['content']) => ({
    description,
    ...(content && { content }),
  });
  if (answer.status === 204) return described('Done; no content.');
  if (answer.status === 302 || answer.status === 303)
    return {
      description: 'See the `Location` header: a short-lived address to fetch the content from.',
      headers: { Location: { schema: { type: 'string', format: 'uri' }, required: true } },
    };
  if (answer.media) {
    const schema = contract.responseBody ? toSchema(contract.responseBody, 'output') : {};
    return described('OK', { [answer.media]: { schema } });
  }
  const meta = documentSchema({ meta: { type: 'object' } }, ['meta']);
  if (answer.collection !== undefined && answer.cursor) {
    return described(
      'A page of the feed, after the cursor.',
      jsonApiContent(
        documentSchema(
          {
            data: { type: 'array', items: anyOf([answer.collection].flat().map(schemaName)) },
            links: ref('CursorLinks'),
          },
          ['data', 'links'],
        ),
      ),
    );
  }
  if (answer.collection !== undefined) {
    const types = [answer.collection].flat();
    return described(
      'A page of the collection.',
      jsonApiContent(
        documentSchema(
          {
            data: { type: 'array', items: anyOf(types.map(schemaName)) },
            ...includedSchema(included),
            meta: ref('CollectionMeta'),
            links: { oneOf: [ref('PaginationLinks'), ref('CursorPageLinks')] },
          },
          ['data', 'meta', 'links'],
        ),
      ),
    );
  }
  if (answer.relationship !== undefined && answer.many) {
    return described(
      "The relationship's linkage: every identifier, with the `meta` each carries (a team's lead: `{lead: true}`).",
      jsonApiContent(
        documentSchema(
          {
            data: { type: 'array', items: identifierSchema([answer.relationship]) },
            links: {
              type: 'object',
              description:
                'The relationship itself, and the record it belongs to with the related records included.',
              properties: {
                self: { type: 'string', format: 'uri' },
                related: { type: 'string', format: 'uri' },
              },
              required: ['self', 'related'],
              additionalProperties: false,
            },
          },
          ['data', 'links'],
        ),
      ),
    );
  }
  if (answer.relationship !== undefined) {
    return described(
      "The relationship's linkage.",
      jsonApiContent(
        documentSchema(
          {
            data: { oneOf: [identifierSchema([answer.relationship]), { type: 'null' }] },
            meta: { type: 'object' },
            links: {
              type: 'object',
              description: 'Where the allocation is read: the vehicle.',
              properties: { related: { type: 'string', format: 'uri' } },
              required: ['related'],
              additionalProperties: false,
            },
          },
          ['data', 'links'],
        ),
      ),
    );
  }
  if (answer.resource !== undefined) {
    const resource = documentSchema(
      {
        data: ref(schemaName(answer.resource)),
        ...includedSchema(included),
        meta: { type: 'object' },
        links: ref('DocumentLinks'),
      },
      ['data', 'links'],
    );
    return described(
      answer.status === 201
        ? 'Created; `Location` names it.'
        : answer.status === 202
          ? 'Accepted: the work is done outside the request; the resource as it stands now.'
          : 'OK',
      jsonApiContent(answer.meta ? { oneOf: [resource, meta] } : resource),
    );
  }
  return described('OK', jsonApiContent(meta));
};

/** The request budgets' headers (docs/request-budgets.md) and `ETag`, once under `components.headers`. */
const BUDGET_HEADERS: HeadersObject = {
  'RateLimit-Policy': {
    description:
      'The request budgets that apply (draft-ietf-httpapi-ratelimit-headers), e.g. `"organisation";q=6000;w=60, "client";q=1200;w=60`. On every answer to an authenticated request once its credentials are accepted, refusals included.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'The budget closest to running out: its name, the requests it has left (`r`) and the seconds until its window ends (`t`), e.g. `"client";r=1187;t=42`.',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds until the window of the spent budget ends.',
    schema: { type: 'integer' },
  },
  ETag: {
    description:
      'The strong entity tag of the version of the record answered (opaque): send it in `If-Match` to make a change conditional on it, or in `If-None-Match` to read it again only if it changed.',
    schema: { type: 'string' },
  },
};
const headerRefs = (...names: string[]): HeadersObject =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
/** On every answer to an authenticated request once its credentials are accepted, refusals included. */
const RATE_LIMIT_HEADERS = headerRefs('RateLimit-Policy', 'RateLimit');
/** Errors answered before the caller is known, so never charged to a budget. */
const UNCHARGED_ERRORS = new Set(['401', '431']);

/**
 * A success of an authenticated route carries the request budgets' headers; one of a route that takes an
 * `Idempotency-Key` may be a replay, and says so in a header.
 */
/** A route's page for a person in a browser (`Answer.page`), beside its JSON:API answer. */
const HTML_PAGE = {
  'text/html': {
    schema: {
      type: 'string',
      description:
        'An HTML page for a person in a browser, answered when the request asks for `text/html` and not for the JSON:API media type.',
    },
  },
} as const;

/** A page answered on its own status (200), where the route's JSON:API answer has another (204). */
const pageResponse = (answer: Answer): ResponsesObject =>
  answer.page && answer.status !== 200
    ? { 200: { description: 'A page for a browser.', content: HTML_PAGE } }
    : {};

const successResponse = (route: Route, answer: Answer, contract: HandlerContract): ResponseObject => {
  const own = withEntityTag(answer, successBody(route, answer, contract));
  const body =
    answer.page && answer.status === 200 ? { ...own, content: { ...own.content, ...HTML_PAGE } } : own;
  const response =
    route.auth.length > 0 ? { ...body, headers: { ...body.headers, ...RATE_LIMIT_HEADERS } } : body;
  if (!takesIdempotencyKey(route)) return response;
  return {
    ...response,
    headers: {
      ...response.headers,
      [REPLAYED_HEADER]: {
        description: `\`true\` when this is the kept answer to an earlier request with the same \`${IDEMPOTENCY_KEY_HEADER}\`.`,
        schema: { type: 'string', enum: ['true'] },
      },
    },
  };
};

/** A JSON:API answer of one record carries its entity tag (`shared/http/preconditions.ts`). */
const answersOneRecord = (answer: Answer) =>
  answer.resource !== undefined && answer.media === undefined && answer.status < 300;

const withEntityTag = (answer: Answer, response: ResponseObject): ResponseObject =>
  answersOneRecord(answer)
    ? { ...response, headers: { ...response.headers, ...headerRefs('ETag') } }
    : response;

/**
 * A write the document promises honours `If-Match`: the change, delete and declared transitions of a
 * declared type, which read their record through the engine (`readInScope`) and commit on its version, so
 * the check holds in the write's own transaction (test/api/preconditions.test.ts). Bespoke moves
 * (`…/sign-out`) read their record in their own ways and are not promised it until each is shown to.
 */
const honoursIfMatch = (route: Route) =>
  (route.declared?.operation === 'update' ||
    route.declared?.operation === 'delete' ||
    route.declared?.operation === 'transition') &&
  preconditionTarget(route) !== undefined;

/**
 * `If-Match` on a write the engine checks it for, `If-None-Match` on a GET of one record (RFC 9110 §13);
 * the statuses they add are in `errorStatuses` and `responsesOf`.
 */
const preconditionParameters = (route: Route, answer: Answer): ParameterObject[] => [
  ...(honoursIfMatch(route)
    ? [
        {
          name: 'If-Match',
          in: 'header' as const,
          required: false,
          schema: { type: 'string' as const },
          description:
            'The `ETag` of the version the change is based on (or `*`): if the record changed since, 412 (PRECONDITION.001) with the current one, and nothing is written. Malformed: 400.',
        },
      ]
    : []),
  ...(route.method === 'GET' && answersOneRecord(answer)
    ? [
        {
          name: 'If-None-Match',
          in: 'header' as const,
          required: false,
          schema: { type: 'string' as const },
          description: 'An `ETag` held (or `*`): while it is current, 304 with no body.',
        },
      ]
    : []),
];

/** The optional `Idempotency-Key` request header of a route that takes one (middlewares/idempotency.ts). */
const idempotencyKeyParameter = (route: Route): ParameterObject[] =>
  takesIdempotencyKey(route)
    ? [
        {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1 },
          description: `Makes a retry safe (draft-ietf-httpapi-idempotency-key-header): a Structured Field String ("…") or the same characters bare, 1–${IDEMPOTENCY_KEY_MAX} printable ASCII characters, kept 24 hours per caller. The same key with the same request answers the first answer again, marked \`${REPLAYED_HEADER}: true\`; with another request 422; while the first is still running 409 with \`Retry-After\`. A 5xx frees the key.`,
        },
      ]
    : [];

const ERRORS: Record<number, string> = {
  400: 'Invalid body, query parameters, path parameters or headers; `source` says which.',
  401: 'No valid credentials (AUTH.001).',
  403: 'The caller lacks the permission this operation needs (AUTH.002).',
  404: 'No such resource for this caller (NOT_FOUND.001).',
  406: 'The `Accept` header allows no media type this operation answers with.',
  409: 'The request conflicts with the current state of the resource, or a request with the same `Idempotency-Key` is still running (`Retry-After`) (CONFLICT.001).',
  412: 'The record changed since the version `If-Match` names (PRECONDITION.001); `ETag` and `meta.etag` give the current one. Nothing was written.',
  413: 'The request body, or the record it would make, is too large.',
  415: 'The request body is not of the media type this operation takes.',
  429: 'Too many requests: the organisation’s or the client’s request budget for this minute is spent (docs/request-budgets.md); `Retry-After` says when to try again, `RateLimit` which budget.',
  422: 'The `Idempotency-Key` was used for another request (IDEMPOTENCY.001), or the body is well-formed but names what cannot be (a notice’s recipient not of the organisation); `source` says which.',
  431: 'Request header fields too large.',
  500: 'Server-side failure.',
  503: 'A dependency is briefly unavailable; retry.',
};

/**
 * The 403 of a route whose area an organisation may switch off (`Route.feature`), which names both reasons
 * it is refused: the `Error403Feature` response, beside `Error403`.
 */
const FEATURE_FORBIDDEN =
  'The caller lacks the permission this operation needs (AUTH.002), or the organisation has switched this area’s feature off (FEATURE.001, `meta.feature` naming it); while it is off, reads stay open to whoever holds `feature-configurations:manage` there.';

/**
 * The error statuses a route's declaration makes possible. A public route that takes a body (the token
 * endpoint, the SNS receiver) checks the credentials in it; an authenticated one may find the caller
 * lacks a permission, including one its subject decides (an export); a record named in the path, or an
 * organisation named in the body, may not exist for the caller.
 */
const errorStatuses = (route: Route): number[] => {
  const writes = route.method !== 'GET';
  const authenticated = route.auth.length > 0;
  const statuses = [
    400,
    ...(authenticated || writes ? [401] : []),
    ...(authenticated ? [403, 429] : []),
    ...(route.path.includes('{') || (authenticated && writes) ? [404] : []),
    406,
    ...(writes ? [409, 413, 415] : []),
    ...(honoursIfMatch(route) ? [412] : []),
    ...(takesIdempotencyKey(route) ? [422] : []),
    ...(route.errors ?? []),
    431,
    500,
    503,
  ];
  return [...new Set(statuses)].sort((a, b) => a - b);
};

/** A status the handler answers in its own error form; the JSON:API one too where the middlewares can. */
const ownErrorResponse = (
  status: number,
  own: NonNullable<HandlerContract['errorBody']>,
  alsoJsonApi: boolean,
): ResponseObject => ({
  description: ERRORS[status] ?? 'Error.',
  content: {
    [own.media]: { schema: toSchema(own.schema, 'output') },
    ...(alsoJsonApi && jsonApiContent(ref('ErrorDocument'))),
  },
});

const responsesOf = (route: Route, answer: Answer, contract: HandlerContract): ResponsesObject => {
  const stack = errorStatuses(route);
  const own = contract.errorBody;
  const statuses = [...new Set([...stack, ...(own?.statuses ?? [])])].sort((a, b) => a - b);
  return {
    [answer.status]: successResponse(route, answer, contract),
    ...pageResponse(answer),
    ...(route.method === 'GET' &&
      answersOneRecord(answer) && {
        304: {
          description: 'Not modified: the `If-None-Match` names the current version.',
          headers: headerRefs('ETag'),
        },
      }),
    ...(answer.job && { 202: successResponse(route, { status: 202, resource: 'jobs' }, contract) }),
    ...(answer.found && {
      200: successResponse(route, { ...answer, status: 200, found: undefined }, contract),
    }),
    ...(answer.redirects && {
      303: {
        description:
          'Signed in: the browser is sent to the `return_to` the sign-in began with, the session in the `__Host-session` cookie (never in the URL). A client that asks for JSON:API gets the 200 answer instead.',
        headers: {
          Location: { schema: { type: 'string', format: 'uri' }, required: true },
          'Set-Cookie': { schema: { type: 'string' }, required: true },
        },
      },
    }),
    ...Object.fromEntries(
      statuses.map((status) => [
        status,
        own?.statuses.includes(status)
          ? ownErrorResponse(status, own, stack.includes(status))
          : {
              $ref: `#/components/responses/Error${status}${status === 403 && route.feature ? 'Feature' : ''}`,
            },
      ]),
    ),
  };
};

/** Each error status once, with the JSON:API error document; operations refer to the ones they can answer. */
const errorResponses = Object.fromEntries(
  [...Object.entries(ERRORS), ['403Feature', FEATURE_FORBIDDEN] as const].map(([status, description]) => [
    `Error${status}`,
    {
      description,
      ...(status === '429'
        ? { headers: headerRefs('Retry-After', 'RateLimit-Policy', 'RateLimit') }
        : status === '412'
          ? { headers: headerRefs('ETag', 'RateLimit-Policy', 'RateLimit') }
          : !UNCHARGED_ERRORS.has(status) && { headers: RATE_LIMIT_HEADERS }),
      content: jsonApiContent(ref('ErrorDocument')),
    },
  ]),
);

/** A text body (an SNS delivery) is a string whose content is the JSON the schema describes. */
const bodySchema = (schema: z.core.$ZodType, media: string): SchemaObject =>
  media === 'text/plain'
    ? ({
        type: 'string',
        contentMediaType: 'application/json',
        contentSchema: toSchema(schema, 'input'),
      } as SchemaObject)
    : toSchema(schema, 'input');

/** SNS sends its JSON as `text/plain`; the receiver also takes it as `application/json`. */
const REQUEST_MEDIA = {
  form: ['application/x-www-form-urlencoded'],
  text: ['text/plain', 'application/json'],
} as const;

const operationOf = async (route: Route, example: RequestExample | undefined): Promise<OperationObject> => {
  const contract = await contractOf(route);
  const answer = answerOf(route);
  const media = route.bodyType ? REQUEST_MEDIA[route.bodyType] : [JSONAPI_MEDIA_TYPE];
  const body = contract.requestBody;
  return {
    operationId: route.id,
    tags: [route.tag],
    summary: route.id.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase()),
    ...(route.deprecated && { deprecated: true }),
    security: route.auth.map((scheme) => ({ [scheme]: [] })),
    ...(route.permission !== null && {
      description:
        route.permission === 'authenticated'
          ? 'Any authenticated caller, about itself.'
          : `Needs \`${route.permission}\` in the organisation${
              route.party ? `, or \`${route.party}\` for one's own record (its person is the caller)` : ''
            }.`,
      'x-permission': route.permission,
      ...(route.party && { 'x-party-permission': route.party }),
    }),
    parameters: [
      ...pathParameters(route),
      ...queryParameters(route, answer, contract),
      ...idempotencyKeyParameter(route),
      ...preconditionParameters(route, answer),
    ],
    ...(body && {
      requestBody: {
        required: true,
        content: Object.fromEntries(
          media.map((type) => [
            type,
            {
              schema: bodySchema(body, type),
              ...(example && { examples: { [route.id]: { value: example(documentIds, DOCUMENT_NOW) } } }),
            },
          ]),
        ),
      },
    }),
    responses: responsesOf(route, answer, contract),
  };
};

/**
 * A type's read attributes, closed: a declaration's read shape (its writes' attributes as served and its
 * `served` ones), or an area's for a type no declaration is. `required` lists those every answer carries
 * (the API takes no sparse fieldsets, so an answer never leaves one out), so a generated client types
 * them as present. A type answered with nothing describing its attributes fails the generation.
 */
const attributesOf = async (type: string): Promise<SchemaObject> => {
  const definition = resourceTypes.get(type);
  const shape = definition ? await readShape(definition) : await answeredTypes.get(type)?.();
  // An empty shape is declared so (a grant is wholly its relationships); none at all fails.
  if (!shape)
    throw new Error(`${type} is answered with, but no declaration or area describes its attributes`);
  const schema = toSchema(z.strictObject(shape), 'output');
  const lifecycle = definition?.lifecycle;
  // A state read from what the record keeps (an attendance's) is no attribute of its own.
  if (!lifecycle?.attribute) return schema;
  // The state is one of the machine's, whatever the read shape says of it; only a move changes it.
  const verbs = clientVerbs(lifecycle).map((verb) => `\`POST …/${verb}\``);
  return {
    ...schema,
    properties: {
      ...schema.properties,
      [lifecycle.attribute]: {
        type: 'string',
        enum: [...lifecycle.states],
        description: `The record's state: moved by ${verbs.join(', ')}.`,
      },
    },
  };
};

/**
 * A stateful type's `meta.allowed_transitions`, carried by its single-record answers (never by
 * collections): each of its verbs for the caller, allowed or the reasons not.
 */
const metaOf = (type: string): SchemaObject | undefined => {
  const lifecycle = resourceTypes.get(type)?.lifecycle;
  if (!lifecycle) return undefined;
  // A machine only workers move (a job's) answers an empty list.
  const verbs = clientVerbs(lifecycle);
  return {
    type: 'object',
    properties: {
      allowed_transitions: {
        type: 'array',
        description:
          'On a single-record answer: what the caller may do next, and why not (a collection leaves it out).',
        items: {
          type: 'object',
          properties: {
            verb: { type: 'string', ...(verbs.length > 0 && { enum: verbs }) },
            allowed: { type: 'boolean' },
            reasons: { type: 'array', items: { type: 'string' } },
          },
          required: ['verb', 'allowed', 'reasons'],
          additionalProperties: false,
        },
      },
    },
  };
};

/** Resource object schemas of every type a route answers with or includes. */
const resourceSchemas = async (documented: Route[]): Promise<Record<string, SchemaObject>> => {
  const types = new Set<string>();
  for (const route of documented) for (const type of typesOf(route)) types.add(type);
  const schemas: Record<string, SchemaObject> = {};
  // One after another, in name order: the document is the same on every run.
  for (const type of [...types].sort()) {
    const definition = resourceTypes.get(type);
    schemas[schemaName(type)] = resourceSchema({
      type,
      attributes: await attributesOf(type),
      relationships: definition?.relationships,
      linked: Boolean(definition?.selfPath),
      meta: metaOf(type),
    });
  }
  return schemas;
};

export const openApiDocument = async (): Promise<OpenAPIObject> => {
  const documented = routes as readonly Route[] as Route[];
  const examples = await loadRequestExamples();
  const paths: PathsObject = {};
  for (const route of documented) {
    const operation = await operationOf(route, examples.get(route.id) ?? undefined);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  const tags = describedTags(documented.map((route) => route.tag));
  return {
    openapi: '3.1.1',
    info: {
      title: 'Compliance and Risk Management API',
      version: API_VERSION,
      description:
        'JSON:API 1.1 over HTTP for compliance and risk records. Changes to this document are listed in the [changelog](/v3/specifications/changelog.md).',
    },
    servers: [{ url: '/', description: 'The deployment serving this document' }],
    tags,
    paths,
    components: {
      securitySchemes: {
        OAuth2: {
          type: 'oauth2',
          description: 'Client credentials of a service account key, exchanged for a bearer token.',
          flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } },
        },
        Session: { type: 'apiKey', in: 'header', name: 'X-Session-Token' },
        Cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
      schemas: { ...envelopeSchemas, ...(await resourceSchemas(documented)) },
      responses: errorResponses,
      headers: BUDGET_HEADERS,
    },
  };
};
