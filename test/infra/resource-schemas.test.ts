/**
 * Issue 39 (what a typed client cannot read): every resource type answered or included by a route has its
 * read attributes described in the OpenAPI document, closed, each with a type. docs/openapi.json is what
 * the code generates (test/api/specifications.test.ts proves it), and every API test's answers are
 * checked against it (test/support/openapi-check.ts), so these schemas are proven on every answer.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  [keyword: string]: unknown;
}

const document = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'),
) as {
  components: { schemas: Record<string, Schema> };
};

/** The resource object schemas: those with `type`, `id` and `attributes`. */
const resources = Object.entries(document.components.schemas).filter(
  ([, schema]) => schema.properties?.attributes && schema.properties.type && schema.properties.id,
);

/** Types whose attributes are empty by design: a grant is wholly its relationships (grantee, role). */
const EMPTY_BY_DESIGN = new Set(['Grants']);

describe('resource schemas', () => {
  it('cover every type the document answers with (71 at issue 39)', () => {
    expect(resources.length).toBeGreaterThanOrEqual(71);
  });

  it.each(resources)('%s: attributes are closed and each one has a type', (name, schema) => {
    const attributes = schema.properties?.attributes as Schema;
    expect(attributes.type).toBe('object');
    expect(attributes.additionalProperties).toBe(false);
    const properties = Object.entries(attributes.properties ?? {});
    if (EMPTY_BY_DESIGN.has(name)) expect(properties).toEqual([]);
    else expect(properties.length).toBeGreaterThan(0);
    // `{}` would be `unknown` to a generated client: it could read the member but not use it.
    for (const [member, described] of properties)
      expect(Object.keys(described), `${name}.attributes.${member} says nothing of its type`).not.toEqual([]);
    for (const member of attributes.required ?? []) expect(attributes.properties).toHaveProperty(member);
  });
});
