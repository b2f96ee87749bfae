/**
 * Configuration, read from the environment once per process and validated. Nothing else reads
 * `process.env`. The CDK stack sets these on every function; the local stack sets them for its process.
 * zod/mini here, not classic zod: every function loads this module, and the tree-shakable build keeps
 * ~430 KB out of bundles that validate nothing else.
 */
import * as z from 'zod/mini';

const text = (fallback: string) => z._default(z.string().check(z.minLength(1)), fallback);
const integer = (min: number, max: number, fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.minimum(min), z.maximum(max)), fallback);

const schema = z.object({
  STAGE: text('local'),
  AWS_REGION: text('eu-west-2'),
  TABLE_NAME: text('compliance'),
  DEVICE_BACKUPS_BUCKET: text('device-backups'),
  EXPORTS_BUCKET: text('exports'),
  DOCUMENTS_BUCKET: text('documents'),
  /** Set only locally: DynamoDB Local and s3rver endpoints. */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  S3_ENDPOINT: z.optional(z.url()),
  /** `iss` of access tokens: the {auth_url}. */
  TOKEN_ISSUER: z._default(z.url(), 'http://127.0.0.1:3000'),
  /** `aud` of access tokens: the API this stage serves. */
  TOKEN_AUDIENCE: text('compliance-api:local'),
  ACCESS_TOKEN_TTL_SECONDS: integer(60, 86_400, 3600),
  /**
   * Token endpoint throttle: failed client authentications allowed per client id and per source address
   * within a window opened by the first failure; the one reaching a limit and all attempts after it
   * until the window closes are 429.
   */
  TOKEN_FAILURE_WINDOW_SECONDS: integer(60, 86_400, 900),
  TOKEN_FAILURES_PER_CLIENT: integer(1, 1000, 10),
  TOKEN_FAILURES_PER_SOURCE: integer(1, 10_000, 50),
  /** In AWS: the KMS asymmetric key (RSA_2048, SIGN_VERIFY) that signs access tokens. */
  SIGNING_KEY_ID: z.optional(z.string().check(z.minLength(1))),
  /** Locally: the PEM file of the RSA key pair under .local/. */
  LOCAL_SIGNING_KEY_FILE: z.optional(z.string().check(z.minLength(1))),
  /** How long a warm container trusts a principal's evaluated grants; a revoked grant stops within it. */
  GRANT_CACHE_SECONDS: integer(0, 300, 30),
  /** Street works: the SNS topic ARNs whose messages the receiver accepts (comma-separated); none by default. */
  SNS_TOPIC_ARNS: z._default(z.string(), ''),
  /**
   * Where SNS signing certificates may come from: `{region}` and `{domain}` (amazonaws.com, or
   * amazonaws.com.cn in the aws-cn partition) come from the message's TopicArn. Tests point it at a
   * loopback server; nothing in a request can change it.
   */
  SNS_CERT_URL_BASE: text('https://sns.{region}.{domain}'),
  /** Set only in tests: a loopback SNS API endpoint for ConfirmSubscription. */
  SNS_ENDPOINT: z.optional(z.url()),
  /** Which organisation a street-works object belongs to: `prefix=org_id,…`, longest matching prefix of its reference. */
  STREET_WORKS_ORGANISATIONS: z._default(z.string(), ''),
  LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
});

export type Config = z.infer<typeof schema>;

export const config: Config = schema.parse(process.env);
