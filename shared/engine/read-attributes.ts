/**
 * A type's read shape: every attribute an answer's `attributes` may hold, and nothing else. The writes'
 * attributes as they are stored and served (a timestamp sent with an offset is served in UTC: the
 * schemas' output), then the declaration's `served` ones, which win where the server serves an attribute
 * otherwise than a write takes it. The OpenAPI document shows it closed; the API tests check every
 * answer against it. Undefined when the declaration describes neither: nothing says what it serves.
 */
import type * as z from 'zod';
import type { ResourceDeclaration } from './resource-definition';

/** The read attributes of types that no declaration describes (whoami, a service account's keys), by type. */
export type AnsweredTypes = Readonly<Record<string, () => Promise<z.ZodRawShape> | z.ZodRawShape>>;

export const readShape = async ({
  writes,
  served,
}: Pick<ResourceDeclaration, 'writes' | 'served'>): Promise<z.ZodRawShape | undefined> =>
  writes || served ? { ...(await writes?.())?.attributes, ...(await served?.()) } : undefined;
