/**
 * The upload a client makes of an image (declare → PUT to the presigned URL → complete); the images
 * themselves are made by sharp in `photos.ts`.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiResponse, TestApi } from './api';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

/** The create body of an image declaring `bytes` (overrides for the bad-input tests). */
export const imageBody = (
  bytes: Uint8Array,
  attributes: Record<string, unknown> = {},
  relationships = {},
) => ({
  data: {
    type: 'images',
    attributes: {
      filename: 'photo.jpg',
      media_type: 'image/jpeg',
      size: bytes.length,
      sha256: sha256(bytes),
      ...attributes,
    },
    ...(Object.keys(relationships).length > 0 && { relationships }),
  },
});

/** Declares an image, PUTs `bytes` (or `put`, the bytes actually sent) and completes it: the completion's answer. */
export const uploadImage = async (
  api: TestApi,
  orgId: string,
  token: string,
  bytes: Uint8Array,
  {
    attributes = {},
    relationships = {},
    put = bytes,
  }: { attributes?: Record<string, unknown>; relationships?: object; put?: Uint8Array } = {},
): Promise<{ id: string; created: ApiResponse; completed: ApiResponse }> => {
  const created = await api.request('POST', `/v3/orgs/${orgId}/images`, {
    token,
    body: imageBody(bytes, attributes, relationships),
  });
  expect(created.status, created.text).toBe(201);
  const upload = created.body.data.meta.upload;
  const stored = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: put });
  expect(stored.status).toBe(200);
  const id = created.body.data.id as string;
  const completed = await api.request('POST', `/v3/images/${id}/complete`, { token });
  return { id, created, completed };
};
