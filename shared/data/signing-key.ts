/**
 * The key that signs access tokens. In AWS it is a KMS asymmetric key (RSA_2048, SIGN_VERIFY): the
 * private key never leaves KMS. Locally it is an RSA key pair in a PEM file under .local/.
 */
import { createPrivateKey, createPublicKey, type JsonWebKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { config } from '../config';
import { keyId } from './verification-keys';

export interface SigningKey {
  /** Key id published in the JWKS and set as `kid` in token headers. */
  kid: string;
  publicJwk: JsonWebKey;
  /** RS256 signature of the JWS signing input. */
  sign(input: Buffer): Promise<Buffer>;
}

const localKey = (file: string): SigningKey => {
  const privateKey = createPrivateKey(readFileSync(file));
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return { kid: keyId(publicJwk), publicJwk, sign: async (input) => sign('sha256', input, privateKey) };
};

const kmsKey = async (keyArn: string): Promise<SigningKey> => {
  const kms = new KMSClient({ region: config.AWS_REGION });
  const { PublicKey } = await kms.send(new GetPublicKeyCommand({ KeyId: keyArn }));
  if (!PublicKey) throw new Error('KMS returned no public key');
  const publicJwk = createPublicKey({ key: Buffer.from(PublicKey), format: 'der', type: 'spki' }).export({
    format: 'jwk',
  });
  return {
    kid: keyId(publicJwk),
    publicJwk,
    sign: async (input) => {
      const out = await kms.send(
        new SignCommand({
          KeyId: keyArn,
          Message: input,
          MessageType: 'RAW',
          SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256',
        }),
      );
      if (!out.Signature) throw new Error('KMS returned no signature');
      return Buffer.from(out.Signature);
    },
  };
};

let loaded: Promise<SigningKey> | undefined;

/** The signing key, loaded once per process (a KMS GetPublicKey on a cold start). */
export const signingKey = (): Promise<SigningKey> => {
  loaded ??= config.SIGNING_KEY_ID
    ? kmsKey(config.SIGNING_KEY_ID)
    : config.LOCAL_SIGNING_KEY_FILE
      ? Promise.resolve(localKey(config.LOCAL_SIGNING_KEY_FILE))
      : Promise.reject(new Error('Neither SIGNING_KEY_ID nor LOCAL_SIGNING_KEY_FILE is configured'));
  return loaded;
};
