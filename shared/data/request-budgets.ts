/**
 * Request budgets (issue 20, item 4): how many requests an organisation, or a client, has taken in the
 * current window, kept where every container of every function sees it. There is one item per subject
 * and window, `BUDGET#<kind>#<subject id>` / `<window start, epoch seconds>`, holding `taken` and
 * `expires_at`. The TTL falls two windows on, so DynamoDB removes spent windows. A container takes requests
 * in leases (`lease`: one UpdateItem ADD for several), so the table is written once per lease, not once
 * per request.
 */

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, keyFrom } from './access-patterns';
import { documents, tableName } from './clients';

/** Adds `count` to the subject's window: what the window held before, and after. */
const keys = /* @__PURE__ */ declareAccessPatterns('data/request-budgets', {
  budget: {
    index: 'table',
    pk: 'BUDGET#{kind}#{subject_id}',
    sk: '{window_start}',
    about: '`taken` in the window (epoch seconds it starts), `expires_at` two windows on (the TTL)',
  },
});

export const lease = async (
  kind: 'organisation' | 'client',
  subjectId: string,
  windowStart: number,
  windowSeconds: number,
  count: number,
): Promise<{ before: number; after: number }> => {
  const out = await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keyFrom(keys.budget, { kind, subject_id: subjectId, window_start: String(windowStart) }),
      UpdateExpression: 'ADD taken :count SET expires_at = if_not_exists(expires_at, :expires)',
      ExpressionAttributeValues: { ':count': count, ':expires': windowStart + 2 * windowSeconds },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const after = Number(out.Attributes?.taken ?? count);
  return { before: after - count, after };
};
