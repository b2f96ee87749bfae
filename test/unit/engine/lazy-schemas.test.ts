/**
 * Loading the declarations builds no schema: a declaration's writes, served types and the schemas its
 * area shares are functions, called when a write or the OpenAPI document needs them, so a cold start
 * that answers a read constructs none (docs/performance.md, "Start-up"). This file imports the
 * composition root itself, and vitest gives each file its own module graph, so every declaration loads
 * here, after the count starts.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

describe('loading every declaration', () => {
  it('constructs no zod schema but the one lazy timestamp (each declaration builds its schemas on use)', async () => {
    const built: string[] = [];
    // zod calls the post-processor once for every schema it constructs.
    z.config({ postProcessor: (schema: z.ZodType) => built.push(schema.def.type) });
    try {
      const { routes } = await import('#shared/routes');
      expect(routes.length).toBeGreaterThan(100);
    } finally {
      z.config({ postProcessor: undefined });
    }
    // `timestamp` (shared/jsonapi/attribute-types.ts) is a `z.lazy`: its wrapper only, its schema on use.
    expect(built).toEqual(['lazy']);
  });
});
