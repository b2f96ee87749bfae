/**
 * A custom resource's handler, run at deploy (infra/constructs/token-keys.ts): reads a KMS signing key's
 * public half and hands it to CloudFormation, which writes it into every function's
 * TOKEN_VERIFICATION_KEYS, so no function fetches a JWKS at a cold start. It answers CloudFormation
 * itself, at the presigned URL the event carries, as the migration runner does (no framework function).
 * CDK's AwsCustomResource cannot: it hands the key's bytes on as text (aws/aws-cdk#19065).
 */
import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { answerCustomResource } from '#shared/http/custom-resource-answer';

const kms = new KMSClient({});

const answer = (
  event: CloudFormationCustomResourceEvent,
  status: 'SUCCESS' | 'FAILED',
  reason: string,
  data?: { PublicKey: string },
) =>
  answerCustomResource(event, {
    status,
    reason,
    physicalResourceId: String(event.ResourceProperties.KeyArn),
    data,
  });

export const handler = async (event: CloudFormationCustomResourceEvent): Promise<void> => {
  if (event.RequestType === 'Delete') return answer(event, 'SUCCESS', 'Nothing to undo: the key stays');
  try {
    const { PublicKey } = await kms.send(
      new GetPublicKeyCommand({ KeyId: String(event.ResourceProperties.KeyArn) }),
    );
    if (!PublicKey) throw new Error('KMS returned no public key');
    // SubjectPublicKeyInfo, DER: what shared/data/verification-keys.ts reads.
    await answer(event, 'SUCCESS', 'Read the public key', {
      PublicKey: Buffer.from(PublicKey).toString('base64'),
    });
  } catch (error) {
    await answer(event, 'FAILED', `No public key: ${error instanceof Error ? error.message : String(error)}`);
  }
};
