/** SDK clients, built once per process. Locally the endpoints point at DynamoDB Local and s3rver. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { guardStorageLimits } from './storage-limits';

/** DynamoDB Local keeps a database per access key: the table's own (`infra/local/clients.ts`). */
const localCredentials = {
  accessKeyId: config.TABLE_NAME.replace(/[^A-Za-z0-9]/g, ''),
  secretAccessKey: 'local',
};

export const dynamodb = new DynamoDBClient({
  region: config.AWS_REGION,
  ...(config.DYNAMODB_ENDPOINT && { endpoint: config.DYNAMODB_ENDPOINT, credentials: localCredentials }),
});

// Values too large for the table are refused before they are sent (storage-limits.ts).
guardStorageLimits(dynamodb);

export const documents = DynamoDBDocumentClient.from(dynamodb, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = config.TABLE_NAME;
