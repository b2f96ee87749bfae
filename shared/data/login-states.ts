/**
 * Sign-ins in progress through an SSO provider: what `GET /v3/sso/{id}/authorize` keeps until the
 * provider sends the browser back to the callback (`state`, `nonce`, the PKCE verifier, and any
 * invitation being accepted). Keyed by the state (256 random bits), living 5 minutes (TTL, and checked on
 * read since TTL deletion lags), and taken by the callback with one conditional delete, so a state is
 * used once: a replayed callback finds nothing.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, keyFrom } from './access-patterns';
import { documents, tableName } from './clients';

export const LOGIN_STATE_SECONDS = 5 * 60;

export interface LoginState {
  org_id: string;
  provider_id: string;
  nonce: string;
  code_verifier: string;
  /** An invitation the sign-in accepts, if any, and the SHA-256 of its token (it must still be current). */
  invitation_id?: string;
  invitation_hash?: string;
  /** Where the callback sends the browser once signed in: checked against the provider's allow-list. */
  return_to?: string;
  /** Epoch seconds: the table's TTL attribute. */
  expires_at: number;
}

const keys = /* @__PURE__ */ declareAccessPatterns('data/login-states', {
  'login-state': {
    index: 'table',
    pk: 'LOGIN#{state}',
    sk: 'LOGIN',
    about: 'an SSO sign-in under way (its `state`): the provider, the PKCE verifier, `expires_at` (the TTL)',
  },
});
const loginStateKey = (state: string) => keyFrom(keys['login-state'], { state });

export const putLoginState = async (
  state: string,
  login: Omit<LoginState, 'expires_at'>,
  now = Date.now(),
) => {
  await documents.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...loginStateKey(state), ...login, expires_at: Math.floor(now / 1000) + LOGIN_STATE_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** The sign-in a state names, removed as it is read; null when there is none, or it has expired. */
export const takeLoginState = async (state: string, now = Date.now()): Promise<LoginState | null> => {
  try {
    const out = await documents.send(
      new DeleteCommand({
        TableName: tableName,
        Key: loginStateKey(state),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    const login = out.Attributes as LoginState | undefined;
    return login && login.expires_at > Math.floor(now / 1000) ? login : null;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
};
