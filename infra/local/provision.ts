/**
 * Creates the table and buckets on the local engines from the same definitions the CDK stack uses.
 * Building the request (`createTableInput`, pure) is separate from sending it.
 */
import {
  type AttributeDefinition,
  CreateTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { tableDefinition } from '#shared/data/table-definition';
import { assertLoopback } from './clients';

export const createTableInput = (tableName: string): CreateTableCommandInput => {
  const { partitionKey, sortKey, localIndexes, globalIndexes, streamView } = tableDefinition;
  const keyNames = [
    partitionKey,
    sortKey,
    ...localIndexes.map((i) => i.sortKey),
    ...globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  const AttributeDefinitions: AttributeDefinition[] = [...new Set(keyNames)].map((AttributeName) => ({
    AttributeName,
    AttributeType: 'S',
  }));
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamView },
    AttributeDefinitions,
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    LocalSecondaryIndexes: localIndexes.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: i.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    GlobalSecondaryIndexes: globalIndexes.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' },
        { AttributeName: i.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
};

const endpointOf = async (client: DynamoDBClient | S3Client) => {
  const endpoint = await client.config.endpoint?.();
  if (!endpoint) throw new Error('Refusing to provision without an explicit local endpoint.');
  return assertLoopback(`${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`);
};

export const createTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  await endpointOf(client);
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
    }),
  );
};

export const createBuckets = async (client: S3Client, names: readonly string[]): Promise<void> => {
  await endpointOf(client);
  for (const Bucket of names) await client.send(new CreateBucketCommand({ Bucket }));
};
