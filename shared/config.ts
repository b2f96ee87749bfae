/**
 * Configuration, read from the environment once per process and validated. Nothing else reads
 * `process.env`. The CDK stack sets these on every function; the local stack sets them for its process.
 *
 * Validated here without zod, on purpose: every function evaluates this module before its first answer,
 * and building a zod schema is the costly part of a cold start (compiling each schema kind's code on
 * first use). With zod/mini this module cost about 10 ms of CPU per cold start, and its import made the
 * bundler file zod's core (about 85 KB, live because write routes use classic zod) with the code every
 * route reads, so GET routes that validate nothing with zod loaded all of it (`npm run bench`, bundles).
 * The rules are few and flat (text, integer in a range, URL, one of a list), so readers below do it.
 */

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

export interface Config {
  STAGE: string;
  AWS_REGION: string;
  TABLE_NAME: string;
  DEVICE_BACKUPS_BUCKET: string;
  EXPORTS_BUCKET: string;
  DOCUMENTS_BUCKET: string;
  /** Image originals and variants (issue 44; `shared/data/table-definition.ts` names their prefixes). */
  IMAGES_BUCKET: string;
  /** Set only locally: DynamoDB Local and s3rver endpoints. */
  DYNAMODB_ENDPOINT?: string;
  S3_ENDPOINT?: string;
  /** `iss` of access tokens: the {auth_url}. */
  TOKEN_ISSUER: string;
  /**
   * The web application people use: invitation e-mails link to `<APP_URL>/accept-invitation?token=…`,
   * whose page sends the token to POST /v3/invitations/accept. The API's own URL unless set.
   */
  APP_URL: string;
  /** `aud` of access tokens: the API this stage serves. */
  TOKEN_AUDIENCE: string;
  ACCESS_TOKEN_TTL_SECONDS: number;
  /**
   * Token endpoint throttle: failed client authentications allowed per client id and per source address
   * within a window opened by the first failure; the one reaching a limit and all attempts after it
   * until the window closes are 429.
   */
  TOKEN_FAILURE_WINDOW_SECONDS: number;
  TOKEN_FAILURES_PER_CLIENT: number;
  TOKEN_FAILURES_PER_SOURCE: number;
  /** In AWS: the KMS asymmetric key (RSA_2048, SIGN_VERIFY) that signs access tokens. */
  SIGNING_KEY_ID?: string;
  /** Locally: the PEM file of the RSA key pair under .local/. */
  LOCAL_SIGNING_KEY_FILE?: string;
  /**
   * In AWS: the public keys that verify access tokens (SubjectPublicKeyInfo, DER, base64, comma-separated),
   * written at deploy from the key store: the signing key and the next or previous one. Locally, unset: the
   * public half of LOCAL_SIGNING_KEY_FILE.
   */
  TOKEN_VERIFICATION_KEYS?: string;
  /** How long a warm container trusts a principal's evaluated grants; a revoked grant stops within it. */
  GRANT_CACHE_SECONDS: number;
  /** Street works: the SNS topic ARNs whose messages the receiver accepts (comma-separated); none by default. */
  SNS_TOPIC_ARNS: string;
  /**
   * Where SNS signing certificates may come from: `{region}` and `{domain}` (amazonaws.com, or
   * amazonaws.com.cn in the aws-cn partition) come from the message's TopicArn. Tests point it at a
   * loopback server; nothing in a request can change it.
   */
  SNS_CERT_URL_BASE: string;
  /** Set only in tests: a loopback SNS API endpoint for ConfirmSubscription. */
  SNS_ENDPOINT?: string;
  /** Which organisation a street-works object belongs to: `prefix=org_id,…`, longest matching prefix of its reference. */
  STREET_WORKS_ORGANISATIONS: string;
  LOG_LEVEL: (typeof LOG_LEVELS)[number];
  /** Requests an organisation may make a minute, all its clients together (429 past it). */
  REQUESTS_PER_MINUTE_ORGANISATION: number;
  /** Requests one client (a user or service account) may make a minute. */
  REQUESTS_PER_MINUTE_CLIENT: number;
  /**
   * The change feed serves events once they are this old: an event's id is minted when its transaction
   * is sent, so one still committing may have an id older than events already committed. Holding back
   * this long keeps a reader's cursor from passing it (see shared/data/events.ts).
   */
  EVENT_FEED_SETTLE_SECONDS: number;
  /**
   * Webhooks may be delivered to loopback addresses (127.0.0.0/8, ::1, names resolving to them): only the
   * local stack and the tests set it; in AWS it stays false, and private, link-local and every other
   * non-public address are refused whatever it says.
   */
  WEBHOOK_ALLOW_LOOPBACK: boolean;
  /** In AWS: the Secrets Manager secret whose value keys the HMAC that seals collection cursors. */
  CURSOR_KEY_SECRET_ARN?: string;
  /** Locally: the file under .local/ holding that key (32 random bytes, base64). */
  LOCAL_CURSOR_KEY_FILE?: string;
  /** In AWS: the KMS symmetric key that encrypts webhook signing secrets at rest. */
  WEBHOOK_SECRETS_KEY_ID?: string;
  /** Locally: the file under .local/ holding the AES-256-GCM key that stands in for it. */
  LOCAL_WEBHOOK_SECRETS_KEY_FILE?: string;
  /** In AWS: the KMS symmetric key that encrypts SSO providers' client secrets at rest. */
  SSO_CLIENT_SECRETS_KEY_ID?: string;
  /** Locally: the file under .local/ holding the AES-256-GCM key that stands in for it. */
  LOCAL_SSO_CLIENT_SECRETS_KEY_FILE?: string;
  /** Set only locally: the loopback Lambda invoke endpoint that runs worker functions as child processes. */
  LAMBDA_ENDPOINT?: string;
  /** The function that runs jobs (its name in AWS, or locally the name the local endpoint knows). */
  JOB_WORKER_FUNCTION: string;
  /**
   * How long one invocation of the job worker starts new chunks before it hands the job on to a fresh
   * invocation of itself: well inside the function's timeout (15 minutes in AWS).
   */
  JOB_INVOCATION_SECONDS: number;
  /**
   * How long a job's worker holds it between checkpoints: a worker that dies is replaced once its lease
   * has run out (the due-work runner looks every minute), so this bounds how long a crash stalls a job.
   */
  JOB_LEASE_SECONDS: number;
  /**
   * An export job writes its file in parts of at least this many KiB (each part is a checkpoint). S3
   * refuses parts under 5 MiB but the last, so that is the least allowed against S3; locally (s3rver)
   * smaller parts let a test write several.
   */
  EXPORT_PART_KIB: number;
  /** An export of up to this many rows is written within its request (201); a larger one is a job (202). */
  EXPORT_INLINE_ROWS: number;
  /** Set only locally: the SES v2 emulator (aws-ses-v2-local) that stands in for SES. */
  SES_ENDPOINT?: string;
  /** The sender of the service's e-mail (invitations): an address, or `Name <address>`, SES may send from. */
  EMAIL_FROM: string;
  /**
   * SSO providers may be reached over plain http on a loopback address (the local OpenID provider): only
   * the local stack and the tests set it. In AWS it stays false, so every provider URL must be https: a
   * loopback URL there would reach the Lambda runtime API on 127.0.0.1, never an identity provider.
   */
  SSO_ALLOW_LOOPBACK_HTTP: boolean;
  /**
   * The image worker's function name (issue 44): set in AWS, where the `image.uploaded` consumer invokes it
   * asynchronously; unset locally and in tests, where the consumer runs the same module in its own process.
   */
  IMAGE_WORKER_FUNCTION?: string;
  /** How long a deleted image, its original included, is kept before it may be purged (legal hold). */
  IMAGE_LEGAL_HOLD_DAYS: number;
  /** A before/after pair whose capture places are further apart than this is flagged (metres). */
  IMAGE_PAIR_MAX_METRES: number;
  /** A before/after pair whose headings differ by more than this is flagged (degrees). */
  IMAGE_PAIR_MAX_DEGREES: number;
}

/** Reads and checks variables, collecting every problem so that one error names them all. */
class Environment {
  readonly problems: string[] = [];
  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /** Any text, possibly empty. */
  any(name: string, fallback: string): string {
    return this.env[name] ?? fallback;
  }

  /** Text of at least one character. */
  text(name: string): string | undefined;
  text(name: string, fallback: string): string;
  text(name: string, fallback?: string) {
    const value = this.env[name];
    if (value === undefined) return fallback;
    if (value.length === 0) this.problems.push(`${name} must not be empty`);
    return value;
  }

  /** An absolute URL. */
  url(name: string): string | undefined;
  url(name: string, fallback: string): string;
  url(name: string, fallback?: string) {
    const value = this.env[name];
    if (value === undefined) return fallback;
    if (!URL.canParse(value)) this.problems.push(`${name} must be an absolute URL`);
    return value;
  }

  /** A whole number in [min, max]. */
  integer(name: string, min: number, max: number, fallback: number): number {
    const value = this.env[name];
    if (value === undefined) return fallback;
    const n = Number(value);
    if (value.trim() !== '' && Number.isInteger(n) && n >= min && n <= max) return n;
    this.problems.push(`${name} must be a whole number from ${min} to ${max}`);
    return fallback;
  }

  /** `true` or `false`. */
  flag(name: string, fallback: boolean): boolean {
    const value = this.env[name];
    if (value === undefined) return fallback;
    if (value === 'true' || value === 'false') return value === 'true';
    this.problems.push(`${name} must be true or false`);
    return fallback;
  }

  /** One of `values`. */
  oneOf<const T extends string>(name: string, values: readonly T[], fallback: T): T {
    const value = this.env[name];
    if (value === undefined) return fallback;
    if ((values as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${values.join(', ')}`);
    return fallback;
  }
}

/** The configuration in `env`; throws one error listing every variable that is set but invalid. */
export const readConfig = (env: Readonly<Record<string, string | undefined>>): Config => {
  const e = new Environment(env);
  const read: Config = {
    STAGE: e.text('STAGE', 'local'),
    AWS_REGION: e.text('AWS_REGION', 'eu-west-2'),
    TABLE_NAME: e.text('TABLE_NAME', 'compliance'),
    DEVICE_BACKUPS_BUCKET: e.text('DEVICE_BACKUPS_BUCKET', 'device-backups'),
    EXPORTS_BUCKET: e.text('EXPORTS_BUCKET', 'exports'),
    DOCUMENTS_BUCKET: e.text('DOCUMENTS_BUCKET', 'documents'),
    IMAGES_BUCKET: e.text('IMAGES_BUCKET', 'images'),
    DYNAMODB_ENDPOINT: e.url('DYNAMODB_ENDPOINT'),
    S3_ENDPOINT: e.url('S3_ENDPOINT'),
    TOKEN_ISSUER: e.url('TOKEN_ISSUER', 'http://127.0.0.1:3000'),
    TOKEN_AUDIENCE: e.text('TOKEN_AUDIENCE', 'compliance-api:local'),
    // The issuer is checked above; an invalid one is reported once.
    APP_URL: e.url('APP_URL', env.TOKEN_ISSUER ?? 'http://127.0.0.1:3000'),
    ACCESS_TOKEN_TTL_SECONDS: e.integer('ACCESS_TOKEN_TTL_SECONDS', 60, 86_400, 3600),
    TOKEN_FAILURE_WINDOW_SECONDS: e.integer('TOKEN_FAILURE_WINDOW_SECONDS', 60, 86_400, 900),
    TOKEN_FAILURES_PER_CLIENT: e.integer('TOKEN_FAILURES_PER_CLIENT', 1, 1000, 10),
    TOKEN_FAILURES_PER_SOURCE: e.integer('TOKEN_FAILURES_PER_SOURCE', 1, 10_000, 50),
    SIGNING_KEY_ID: e.text('SIGNING_KEY_ID'),
    LOCAL_SIGNING_KEY_FILE: e.text('LOCAL_SIGNING_KEY_FILE'),
    TOKEN_VERIFICATION_KEYS: e.text('TOKEN_VERIFICATION_KEYS'),
    GRANT_CACHE_SECONDS: e.integer('GRANT_CACHE_SECONDS', 0, 300, 30),
    REQUESTS_PER_MINUTE_ORGANISATION: e.integer('REQUESTS_PER_MINUTE_ORGANISATION', 1, 1_000_000, 6000),
    REQUESTS_PER_MINUTE_CLIENT: e.integer('REQUESTS_PER_MINUTE_CLIENT', 1, 1_000_000, 1200),
    SNS_TOPIC_ARNS: e.any('SNS_TOPIC_ARNS', ''),
    SNS_CERT_URL_BASE: e.text('SNS_CERT_URL_BASE', 'https://sns.{region}.{domain}'),
    SNS_ENDPOINT: e.url('SNS_ENDPOINT'),
    STREET_WORKS_ORGANISATIONS: e.any('STREET_WORKS_ORGANISATIONS', ''),
    LOG_LEVEL: e.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    EVENT_FEED_SETTLE_SECONDS: e.integer('EVENT_FEED_SETTLE_SECONDS', 0, 60, 5),
    WEBHOOK_ALLOW_LOOPBACK: e.flag('WEBHOOK_ALLOW_LOOPBACK', false),
    CURSOR_KEY_SECRET_ARN: e.text('CURSOR_KEY_SECRET_ARN'),
    LOCAL_CURSOR_KEY_FILE: e.text('LOCAL_CURSOR_KEY_FILE'),
    WEBHOOK_SECRETS_KEY_ID: e.text('WEBHOOK_SECRETS_KEY_ID'),
    LOCAL_WEBHOOK_SECRETS_KEY_FILE: e.text('LOCAL_WEBHOOK_SECRETS_KEY_FILE'),
    SSO_CLIENT_SECRETS_KEY_ID: e.text('SSO_CLIENT_SECRETS_KEY_ID'),
    LOCAL_SSO_CLIENT_SECRETS_KEY_FILE: e.text('LOCAL_SSO_CLIENT_SECRETS_KEY_FILE'),
    LAMBDA_ENDPOINT: e.url('LAMBDA_ENDPOINT'),
    // The worker itself is not told its own name (CDK cannot say it without a cycle): Lambda says it.
    JOB_WORKER_FUNCTION: e.text('JOB_WORKER_FUNCTION', env.AWS_LAMBDA_FUNCTION_NAME ?? 'job-worker'),
    JOB_INVOCATION_SECONDS: e.integer('JOB_INVOCATION_SECONDS', 1, 840, 600),
    JOB_LEASE_SECONDS: e.integer('JOB_LEASE_SECONDS', 1, 900, 120),
    EXPORT_PART_KIB: e.integer('EXPORT_PART_KIB', env.S3_ENDPOINT ? 1 : 5120, 1_048_576, 8192),
    EXPORT_INLINE_ROWS: e.integer('EXPORT_INLINE_ROWS', 0, 50_000, 10_000),
    SES_ENDPOINT: e.url('SES_ENDPOINT'),
    EMAIL_FROM: e.text('EMAIL_FROM', 'no-reply@compliance.local'),
    SSO_ALLOW_LOOPBACK_HTTP: e.flag('SSO_ALLOW_LOOPBACK_HTTP', false),
    IMAGE_WORKER_FUNCTION: e.text('IMAGE_WORKER_FUNCTION'),
    // Seven years: the limitation period for a claim under a deed, which site evidence may be asked for.
    IMAGE_LEGAL_HOLD_DAYS: e.integer('IMAGE_LEGAL_HOLD_DAYS', 0, 36_500, 2557),
    IMAGE_PAIR_MAX_METRES: e.integer('IMAGE_PAIR_MAX_METRES', 1, 100_000, 25),
    IMAGE_PAIR_MAX_DEGREES: e.integer('IMAGE_PAIR_MAX_DEGREES', 1, 180, 45),
  };
  if (e.problems.length > 0) throw new Error(`Invalid configuration: ${e.problems.join('; ')}.`);
  return read;
};

export const config: Config = readConfig(process.env);
