/** Where the measured sizes live, and how a partition key names its collection. */
import { resolve } from 'node:path';
import { REPOSITORY_ROOT } from '../repository';

export const MEASURED_SIZES = resolve(REPOSITORY_ROOT, 'infra/growth-table/measured-sizes.json');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/**
 * Hashes and tokens (sessions, idempotency keys): long base64url runs with a digit or capital in them,
 * which no type's name (`construction-phase-plan-versions`) has.
 */
const TOKEN = /(?=[a-z_-]*[A-Z0-9_])[A-Za-z0-9_-]{20,}/g;

/** A partition key as its collection: `ORG#<id>#audit-events` for every organisation's audit entries. */
export const collectionOf = (pk: string): string => pk.replace(UUID, '<id>').replace(TOKEN, '<hash>');
