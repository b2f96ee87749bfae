/**
 * Issue 40, item 3: the OpenAPI document's request examples are the areas' `examples.ts`, the bodies the
 * tests send (the every-record builder sends each one, so each is known to be accepted). Every JSON:API
 * request body the document describes shows one, valid against the schema beside it, naming only
 * made-up ids, so the document is the same on every run (specifications.test.ts proves it current).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { JSONAPI_MEDIA_TYPE } from '#shared/jsonapi/document';
import { ownExamples } from '../../infra/request-examples';

interface Body {
  schema: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Document {
  paths: Record<
    string,
    Record<string, { operationId: string; requestBody?: { content: Record<string, Body> } }>
  >;
}

const document = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'),
) as Document;

/** JSON:API bodies with no example, and why none can be sent from an organisation's ids. */
const WITHOUT_EXAMPLE = {
  acceptInvitation: 'its body is the one-time token the invitation e-mail carries, which no record id names',
};

const jsonApiBodies = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const body = operation.requestBody?.content[JSONAPI_MEDIA_TYPE];
      // The body's place in the document (RFC 6901), where its schema is read with its references.
      const pointer = ['paths', path, method, 'requestBody', 'content', JSONAPI_MEDIA_TYPE, 'schema']
        .map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1'))
        .join('/');
      return body ? [{ id: operation.operationId, body, pointer }] : [];
    }),
  );

/** Each example that its operation's request schema refuses, with why. */
const refusedExamples = (doc: Document): string[] => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'openapi');
  return jsonApiBodies(doc).flatMap(({ id, body, pointer }) => {
    const valid = ajv.getSchema(`openapi#/${pointer}`);
    if (!valid) return [`${id}: no schema at ${pointer}`];
    return Object.values(body.examples ?? {}).flatMap(({ value }) =>
      valid(value) ? [] : [`${id}: ${ajv.errorsText(valid.errors)}`],
    );
  });
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

describe('the OpenAPI document shows the bodies the tests send (issue 40, item 3)', () => {
  it('every JSON:API request body the document describes has an example', () => {
    const missing = jsonApiBodies(document).filter(({ body }) => !body.examples);
    expect(missing.map(({ id }) => id)).toEqual(Object.keys(WITHOUT_EXAMPLE));
  });

  it('every example is valid against the request schema beside it', () => {
    expect(refusedExamples(document)).toEqual([]);
  });

  it('the check refuses an example its schema does not take', () => {
    const broken = structuredClone(document);
    const [first] = jsonApiBodies(broken).filter(({ body }) => body.examples);
    const value = Object.values(first?.body.examples ?? {})[0]?.value as { data: { type: string } };
    value.data.type = 'no-such-type';
    expect(refusedExamples(broken)).toEqual([expect.stringContaining(`${first?.id}: `)]);
  });

  it('the examples name only made-up ids (zeros but the last group), the same on every run', () => {
    const ids = jsonApiBodies(document).flatMap(
      ({ body }) => JSON.stringify(body.examples ?? {}).match(UUID) ?? [],
    );
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((id) => !id.startsWith('00000000-0000-4000-8000-'))).toEqual([]);
  });

  it("an area's examples are of its own routes: one of another area's route is refused", () => {
    const example = () => ({});
    expect(ownExamples('agents', 'functions/agents/examples.ts', { createAgent: example })).toHaveLength(1);
    expect(() => ownExamples('agents', 'functions/agents/examples.ts', { createComment: example })).toThrow(
      'functions/agents/examples.ts has examples of createComment: no routes of agents',
    );
  });
});
