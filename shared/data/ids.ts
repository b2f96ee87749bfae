import { randomBytes } from 'node:crypto';

/**
 * UUID version 7 (RFC 9562): the first 48 bits are the creation time in milliseconds, so ids sort in
 * creation order and a collection partition's `sk` order is its `created_at` order, with no extra index.
 */
export const uuidv7 = (at: number = Date.now()): string => {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(at, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
