/** The bundle-size and start-up baseline: a handler that only does a GetCommand. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { pk: string; sk: string }) => ({
  statusCode: 200,
  body: JSON.stringify(
    (await documents.send(new GetCommand({ TableName: 'table', Key: { pk: event.pk, sk: event.sk } })))
      .Item ?? null,
  ),
});
