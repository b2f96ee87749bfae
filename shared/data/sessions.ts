/**
 * User sessions, stored by the SHA-256 of their opaque token (never the token itself) with a DynamoDB
 * TTL on `expires_at`; expiry is also checked on read because TTL deletion can lag by hours.
 */

import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, keyFrom } from './access-patterns';
import { documents, tableName } from './clients';

export interface SessionRecord {
  principal_id: string;
  created_at: string;
  /** Epoch seconds: the table's TTL attribute. */
  expires_at: number;
}

const keys = /* @__PURE__ */ declareAccessPatterns('data/sessions', {
  session: {
    index: 'table',
    pk: 'SESSION#{token_hash}',
    sk: 'SESSION',
    about: 'a session (the SHA-256 of its token): the principal, `created_at`, `expires_at` (the TTL)',
  },
});
export const sessionKey = (tokenHash: string) => keyFrom(keys.session, { token_hash: tokenHash });

export const putSession = async (tokenHash: string, session: SessionRecord): Promise<void> => {
  await documents.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...sessionKey(tokenHash), ...session },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** Ends a session (logout): its item goes; a token already gone is no error. */
export const deleteSession = async (tokenHash: string): Promise<void> => {
  await documents.send(new DeleteCommand({ TableName: tableName, Key: sessionKey(tokenHash) }));
};
