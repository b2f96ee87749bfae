/**
 * cdk-nag (AwsSolutions) findings this design accepts, each with its reason. Everything else must pass:
 * test/infra/nag.test.ts synthesises the stack with the rule pack and fails on any unacknowledged error.
 */
import { type Stack, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { IMAGE_ORIGINALS_PREFIX, IMAGE_VARIANTS_PREFIX } from '#shared/data/table-definition';

export const acknowledgeNagFindings = (
  stack: Stack,
  data: {
    table: Table;
    deviceBackups: Bucket;
    exports: Bucket;
    documents: Bucket;
    images: Bucket;
    accessLogs: Bucket;
  },
  jobWorker: LambdaFunction,
  imageWorker: LambdaFunction,
) => {
  const arn = (construct: { node: { defaultChild?: unknown } }) =>
    `<${stack.getLogicalId(construct.node.defaultChild as never)}.Arn>`;
  const acknowledge = (id: string, reason: string) => Validations.of(stack).acknowledge({ id, reason });

  acknowledge(
    'AwsSolutions-APIG4',
    'Every route authenticates in its function (shared/http/middlewares/authorisation.ts): the API accepts bearer tokens, session tokens and a session cookie, which no single API Gateway authorizer covers; the public routes (token, JWKS, status, the SNS receiver) prove themselves otherwise.',
  );
  acknowledge(
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The AWS-managed basic execution policy grants only CreateLogGroup, CreateLogStream and PutLogEvents, which every function needs for its logs.',
  );
  acknowledge(
    `AwsSolutions-IAM5[Resource::${arn(data.table)}/index/*]`,
    'Reads query the one table’s own indexes (lsi1, lsi2, gsi1); the grant names this table only.',
  );
  for (const bucket of [data.deviceBackups, data.exports, data.documents, data.images]) {
    acknowledge(
      `AwsSolutions-IAM5[Resource::${arn(bucket)}/*]`,
      'Objects are per-record keys under one bucket that only these functions use; access is by presigned URLs naming one key.',
    );
  }
  for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
    acknowledge(
      `AwsSolutions-IAM5[Action::${action}]`,
      'The CDK bucket grants (grantRead / grantReadWrite) for this service’s own buckets: object reads, writes, multipart aborts and deletes, nothing account-wide.',
    );
  }
  acknowledge(
    'AwsSolutions-IAM5[Resource::*]',
    'dynamodb:ListStreams, which a DynamoDB stream event source needs, takes no resource narrower than *; the consumer’s other stream actions name the table’s stream (CDK’s grantStreamRead).',
  );
  acknowledge(
    `AwsSolutions-IAM5[Resource::${arn(jobWorker)}:*]`,
    'CDK’s grantInvoke on the job worker: the function and its versions; the consumer and the due-work runner invoke it by name.',
  );
  acknowledge(
    `AwsSolutions-IAM5[Resource::${arn(imageWorker)}:*]`,
    'CDK’s grantInvoke on the image worker: the function and its versions; the event consumer invokes it by name.',
  );
  for (const prefix of [IMAGE_ORIGINALS_PREFIX, IMAGE_VARIANTS_PREFIX]) {
    acknowledge(
      `AwsSolutions-IAM5[Resource::${arn(data.images)}/${prefix}*]`,
      'The image worker reads originals and writes variants, each under its own prefix of the images bucket, one object a record: narrower than the bucket.',
    );
  }
  acknowledge(
    'AwsSolutions-SMG4',
    'The cursor key only seals page positions the service hands out (no credential, nothing to decrypt); replacing it just makes outstanding cursors answer 400, so it is rotated by hand if ever exposed, not on a schedule.',
  );
  acknowledge(
    'AwsSolutions-SQS3',
    'The queue is itself the dead-letter destination of the event consumer’s stream mapping (onFailure); a dead-letter queue of its own would have nothing to catch.',
  );
  Validations.of(data.accessLogs).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'This is the server access log bucket itself; logging it to itself would loop.',
  });
};
