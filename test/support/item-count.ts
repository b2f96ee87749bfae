/**
 * How many items the test file's table holds, for "a refused request writes nothing" checks. Request
 * budget windows (`BUDGET#…`) are left out: a refused request is still a request, and counting it
 * against its budget is the point (shared/http/middlewares/request-budget.ts).
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { localDynamoDbClient } from '../../infra/local/clients';

export const itemCount = async (): Promise<number> => {
  const out = await localDynamoDbClient(
    process.env.DYNAMODB_ENDPOINT ?? '',
    process.env.TABLE_NAME ?? '',
  ).send(
    new ScanCommand({
      TableName: process.env.TABLE_NAME,
      Select: 'COUNT',
      ConsistentRead: true,
      FilterExpression: 'NOT begins_with(pk, :budget)',
      ExpressionAttributeValues: { ':budget': { S: 'BUDGET#' } },
    }),
  );
  return out.Count ?? 0;
};
