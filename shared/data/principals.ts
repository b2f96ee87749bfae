/**
 * The identity records behind authentication, outside any tenant partition because a token names its
 * principal before any organisation is known:
 * - `PRINCIPAL#<id>`: who the caller is, whether they are enabled, their grants and their keys' state,
 *   so that one GetItem authorises a request and a disabled key or account stops working at once;
 * - `CLIENT#<client_id>`: a key's salted secret hash, read only by the token endpoint.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { getItem } from './repository';

export interface Grant {
  org_id: string;
  role: string;
}

export interface PrincipalRecord {
  kind: 'service-account' | 'user';
  id: string;
  name: string;
  enabled: boolean;
  grants: Grant[];
  /** Keys of a service account by client id, with whether each is enabled. */
  keys: Record<string, { enabled: boolean }>;
}

export interface ClientRecord {
  client_id: string;
  principal_id: string;
  secret_hash: string;
  created_at: string;
}

const principalKey = (id: string) => ({ pk: `PRINCIPAL#${id}`, sk: 'PRINCIPAL' });
const clientKey = (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' });

export const getPrincipal = (id: string) => getItem<PrincipalRecord>(principalKey(id));

export const getClient = (clientId: string) => getItem<ClientRecord>(clientKey(clientId));

export const putPrincipal = async (principal: PrincipalRecord): Promise<void> => {
  await documents.send(
    new PutCommand({ TableName: tableName, Item: { ...principalKey(principal.id), ...principal } }),
  );
};

export const putClient = async (client: ClientRecord): Promise<void> => {
  await documents.send(
    new PutCommand({ TableName: tableName, Item: { ...clientKey(client.client_id), ...client } }),
  );
};
