/**
 * User sessions, stored by the SHA-256 of their opaque token (never the token itself) with a DynamoDB
 * TTL on `expires_at`; expiry is also checked on read because TTL deletion can lag by hours.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { getItem } from './repository';

export interface SessionRecord {
  principal_id: string;
  created_at: string;
  /** Epoch seconds: the table's TTL attribute. */
  expires_at: number;
}

const sessionKey = (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });

export const putSession = async (tokenHash: string, session: SessionRecord): Promise<void> => {
  await documents.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...sessionKey(tokenHash), ...session },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

export const getSession = async (tokenHash: string, now = Date.now()): Promise<SessionRecord | null> => {
  const session = await getItem<SessionRecord>(sessionKey(tokenHash));
  return session && session.expires_at * 1000 > now ? session : null;
};
