/** The bundle-size and start-up baseline: a handler that only does a GetCommand, on the service's table. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

// The endpoint as the service's own client takes it (DynamoDB Local in the bench; unset in AWS).
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient(process.env.DYNAMODB_ENDPOINT ? { endpoint: process.env.DYNAMODB_ENDPOINT } : {}),
);

export const handler = async (event: { pk: string; sk: string }) => ({
  statusCode: 200,
  body: JSON.stringify(
    (
      await documents.send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.pk, sk: event.sk } }),
      )
    ).Item ?? null,
  ),
});
