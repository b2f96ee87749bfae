/**
 * Configuration, read from the environment once per process and validated. Nothing else reads
 * `process.env`. The CDK stack sets these on every function; the local stack sets them for its process.
 */
import { z } from 'zod';

const schema = z.object({
  STAGE: z.string().min(1).default('local'),
  AWS_REGION: z.string().min(1).default('eu-west-2'),
  TABLE_NAME: z.string().min(1).default('compliance'),
  DEVICE_BACKUPS_BUCKET: z.string().min(1).default('device-backups'),
  EXPORTS_BUCKET: z.string().min(1).default('exports'),
  /** Set only locally: DynamoDB Local and s3rver endpoints. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  S3_ENDPOINT: z.url().optional(),
  /** `iss` of access tokens: the {auth_url}. */
  TOKEN_ISSUER: z.url().default('http://127.0.0.1:3000'),
  /** `aud` of access tokens: the API this stage serves. */
  TOKEN_AUDIENCE: z.string().min(1).default('compliance-api:local'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** In AWS: the KMS asymmetric key (RSA_2048, SIGN_VERIFY) that signs access tokens. */
  SIGNING_KEY_ID: z.string().min(1).optional(),
  /** Locally: the PEM file of the RSA key pair under .local/. */
  LOCAL_SIGNING_KEY_FILE: z.string().min(1).optional(),
  /** How long a warm container trusts a principal's evaluated grants; a revoked grant stops within it. */
  GRANT_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof schema>;

export const config: Config = schema.parse(process.env);
