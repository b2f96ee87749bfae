/**
 * The keys that sign access tokens, and the public keys every function verifies them with, shipped in
 * its environment (TOKEN_VERIFICATION_KEYS) so no cold start fetches the JWKS from our own API.
 *
 * Rotation stays safe because a key is trusted one deploy before it signs, and still trusted for a token
 * lifetime after it stops: CloudFormation writes the whole list into every function in one update.
 * 1. Add the next key to `keys` (still signing with the current one): every function trusts both, and
 *    GET /.well-known/jwks.json publishes both.
 * 2. Make it `signing`: new tokens carry its `kid`; tokens of the old key still verify.
 * 3. After ACCESS_TOKEN_TTL_SECONDS, drop the old key from `keys` (KMS keeps it: RETAIN).
 */
import { CustomResource, Fn, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { WorkerFunction } from './area-function';

export interface TokenKeysProps {
  /** Construct ids of the keys tokens may be signed with, in the stack's scope (their logical ids). */
  keys: readonly string[];
  /** The one of `keys` that signs. */
  signing: string;
  logRetention: RetentionDays;
}

/** The key set a stack starts with: one key, the one every stack made before rotation existed has. */
export const FIRST_TOKEN_KEYS = { keys: ['TokenSigningKey'], signing: 'TokenSigningKey' } as const;

export class TokenKeys extends Construct {
  readonly signingKey: Key;
  /** Every trusted key's SubjectPublicKeyInfo (DER, base64), comma-separated: TOKEN_VERIFICATION_KEYS. */
  readonly verificationKeys: string;

  constructor(scope: Construct, id: string, { keys, signing, logRetention }: TokenKeysProps) {
    super(scope, id);
    // In the stack's own scope, so the first key keeps the logical id it had before rotation existed.
    const made = keys.map(
      (name) =>
        [
          name,
          new Key(scope, name, {
            description: 'Signs access tokens (RS256); the private key never leaves KMS.',
            keySpec: KeySpec.RSA_2048,
            keyUsage: KeyUsage.SIGN_VERIFY,
            removalPolicy: RemovalPolicy.RETAIN,
          }),
        ] as const,
    );
    const signingKey = made.find(([name]) => name === signing)?.[1];
    if (!signingKey) throw new Error(`The signing key ${signing} is not among the trusted keys`);
    this.signingKey = signingKey;
    const reader = new WorkerFunction(this, 'PublicKeyReader', {
      entry: 'infra/token-keys/public-key-reader.ts',
      description: 'Reads the token keys’ public halves at deploy, for every function’s environment',
      logRetention,
      retryAttempts: 0,
    });
    reader.addToRolePolicy(
      new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: made.map(([, key]) => key.keyArn) }),
    );
    this.verificationKeys = Fn.join(
      ',',
      made.map(([name, key]) =>
        new CustomResource(this, `${name}Public`, {
          serviceToken: reader.functionArn,
          resourceType: 'Custom::TokenPublicKey',
          properties: { KeyArn: key.keyArn },
        }).getAttString('PublicKey'),
      ),
    );
  }
}
