/**
 * Loading the declarations builds no schema: a declaration's writes, served types and the schemas its
 * area shares are async functions, which load the schema builders (`#shared/jsonapi/schema-builders`)
 * when a write or the OpenAPI document needs them, so a cold start that answers a read constructs none
 * and loads no zod (docs/performance.md, "Start-up"; `test/infra/area-bundles.test.ts` for the bytes). This file imports the
 * composition root itself, and vitest gives each file its own module graph, so every declaration loads
 * here, after the count starts.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

describe('loading every declaration', () => {
  it('constructs no zod schema (each declaration builds its schemas on use)', async () => {
    const built: string[] = [];
    // zod calls the post-processor once for every schema it constructs.
    z.config({ postProcessor: (schema: z.ZodType) => built.push(schema.def.type) });
    try {
      const { routes } = await import('#shared/routes');
      expect(routes.length).toBeGreaterThan(100);
    } finally {
      z.config({ postProcessor: undefined });
    }
    // Not even `timestamp`'s lazy wrapper: its module (shared/jsonapi/attribute-types.ts) loads with the builders.
    expect(built).toEqual([]);
  });
});
