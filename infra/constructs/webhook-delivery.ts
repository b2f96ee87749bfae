/**
 * Webhook delivery (issue 18): the KMS key that encrypts subscriptions' signing secrets. The key is
 * symmetric, rotated yearly, retained; the API may only Encrypt with it (new secrets), and only the
 * delivery functions (the event consumer's first attempts and the due-work runner's retries, through
 * `grantDelivery`) Decrypt.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export class WebhookDelivery extends Construct {
  readonly secretsKey: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secretsKey = new Key(this, 'SecretsKey', {
      description:
        'Encrypts webhook signing secrets at rest (the service signs with them, so they cannot be hashed).',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** What delivering needs: the table (deliveries, subscriptions, events) and decrypting secrets. */
  grantDelivery(grantee: IGrantable, table: Table) {
    table.grantReadWriteData(grantee);
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['kms:Decrypt'], resources: [this.secretsKey.keyArn] }),
    );
  }
}
