/** Folders a test files documents in, made through the API. */
import { expect } from 'vitest';
import type { RequestOptions, TestApi } from './api';

/** A folder of the organisation (in `parent`, if given), made as `as` (a token, or headers); its id. */
export const createFolder = async (
  api: TestApi,
  orgId: string,
  as: Pick<RequestOptions, 'token' | 'headers'>,
  name: string,
  parent?: string,
) => {
  const res = await api.request('POST', `/v3/orgs/${orgId}/folders`, {
    ...as,
    body: {
      data: {
        type: 'folders',
        attributes: { name },
        ...(parent && { relationships: { parent: { data: { type: 'folders', id: parent } } } }),
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
