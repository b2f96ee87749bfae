/**
 * Configuration is read from the environment once per process and validated without zod (start-up, issue
 * 16): the defaults and rules of the zod/mini schema it replaced (an empty number is now refused, where coercion read it as 0).
 */
import { describe, expect, it } from 'vitest';
import { readConfig } from '#shared/config';

describe('configuration from the environment', () => {
  it('gives every default when nothing is set', () => {
    expect(readConfig({})).toEqual({
      STAGE: 'local',
      AWS_REGION: 'eu-west-2',
      TABLE_NAME: 'compliance',
      DEVICE_BACKUPS_BUCKET: 'device-backups',
      EXPORTS_BUCKET: 'exports',
      DOCUMENTS_BUCKET: 'documents',
      IMAGES_BUCKET: 'images',
      DYNAMODB_ENDPOINT: undefined,
      S3_ENDPOINT: undefined,
      TOKEN_ISSUER: 'http://127.0.0.1:3000',
      TOKEN_AUDIENCE: 'compliance-api:local',
      ACCESS_TOKEN_TTL_SECONDS: 3600,
      TOKEN_FAILURE_WINDOW_SECONDS: 900,
      TOKEN_FAILURES_PER_CLIENT: 10,
      TOKEN_FAILURES_PER_SOURCE: 50,
      SIGNING_KEY_ID: undefined,
      LOCAL_SIGNING_KEY_FILE: undefined,
      GRANT_CACHE_SECONDS: 30,
      REQUESTS_PER_MINUTE_ORGANISATION: 6000,
      REQUESTS_PER_MINUTE_CLIENT: 1200,
      SNS_TOPIC_ARNS: '',
      SNS_CERT_URL_BASE: 'https://sns.{region}.{domain}',
      SNS_ENDPOINT: undefined,
      STREET_WORKS_ORGANISATIONS: '',
      LOG_LEVEL: 'info',
      EVENT_FEED_SETTLE_SECONDS: 5,
      // Issue 18, webhooks: loopback delivery is off unless the local stack or the tests turn it on.
      WEBHOOK_ALLOW_LOOPBACK: false,
      // Issue 19: cursors are sealed with a key configured per environment; none by default.
      CURSOR_KEY_SECRET_ARN: undefined,
      LOCAL_CURSOR_KEY_FILE: undefined,
      WEBHOOK_SECRETS_KEY_ID: undefined,
      LOCAL_WEBHOOK_SECRETS_KEY_FILE: undefined,
      // Issue 41: SSO client secrets have a key of their own, configured per environment.
      SSO_CLIENT_SECRETS_KEY_ID: undefined,
      LOCAL_SSO_CLIENT_SECRETS_KEY_FILE: undefined,
      // Issue 18, jobs: the worker's name (in AWS, Lambda tells the worker its own), 10-minute
      // invocations, a 2-minute lease.
      LAMBDA_ENDPOINT: undefined,
      JOB_WORKER_FUNCTION: 'job-worker',
      JOB_INVOCATION_SECONDS: 600,
      JOB_LEASE_SECONDS: 120,
      EXPORT_PART_KIB: 8192,
      EXPORT_INLINE_ROWS: 10_000,
      // E-mail goes to SES in AWS (an emulator locally), from a no-reply sender unless configured.
      SES_ENDPOINT: undefined,
      EMAIL_FROM: 'no-reply@compliance.local',
      // SSO providers are https only unless the local stack or the tests allow loopback http.
      SSO_ALLOW_LOOPBACK_HTTP: false,
      // Issue 44: the image worker runs in-process unless named; a deleted image is held seven years.
      IMAGE_WORKER_FUNCTION: undefined,
      IMAGE_LEGAL_HOLD_DAYS: 2557,
      IMAGE_PAIR_MAX_METRES: 25,
      IMAGE_PAIR_MAX_DEGREES: 45,
      // Invitation e-mails link to the web application; the API's own URL unless set.
      APP_URL: 'http://127.0.0.1:3000',
    });
  });

  it('the job worker finds its own name where Lambda gives it', () => {
    expect(readConfig({ AWS_LAMBDA_FUNCTION_NAME: 'stack-JobsWorker-abc' }).JOB_WORKER_FUNCTION).toBe(
      'stack-JobsWorker-abc',
    );
  });

  it('export parts are at least S3’s least part (5 MiB) against S3; smaller only against a local endpoint', () => {
    expect(() => readConfig({ EXPORT_PART_KIB: '64' })).toThrow(
      'EXPORT_PART_KIB must be a whole number from 5120 to 1048576',
    );
    expect(readConfig({ EXPORT_PART_KIB: '64', S3_ENDPOINT: 'http://127.0.0.1:4569' }).EXPORT_PART_KIB).toBe(
      64,
    );
  });

  it('reads what is set, whole numbers from their text', () => {
    const config = readConfig({
      STAGE: 'prod',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      GRANT_CACHE_SECONDS: '0',
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      LOG_LEVEL: 'warn',
      SNS_TOPIC_ARNS: '',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
    expect(config).toMatchObject({
      WEBHOOK_ALLOW_LOOPBACK: true,
      STAGE: 'prod',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      GRANT_CACHE_SECONDS: 0,
      ACCESS_TOKEN_TTL_SECONDS: 86_400,
      LOG_LEVEL: 'warn',
      SNS_TOPIC_ARNS: '',
    });
  });

  it('refuses invalid values, naming every one in a single error', () => {
    const invalid = {
      TABLE_NAME: '',
      TOKEN_ISSUER: 'not a url',
      ACCESS_TOKEN_TTL_SECONDS: '59',
      GRANT_CACHE_SECONDS: '1.5',
      TOKEN_FAILURES_PER_CLIENT: '',
      TOKEN_FAILURES_PER_SOURCE: 'ten',
      LOG_LEVEL: 'verbose',
      SIGNING_KEY_ID: '',
      WEBHOOK_ALLOW_LOOPBACK: 'yes',
    };
    expect(() => readConfig(invalid)).toThrow(
      'Invalid configuration: TABLE_NAME must not be empty; TOKEN_ISSUER must be an absolute URL; ' +
        'ACCESS_TOKEN_TTL_SECONDS must be a whole number from 60 to 86400; ' +
        'TOKEN_FAILURES_PER_CLIENT must be a whole number from 1 to 1000; ' +
        'TOKEN_FAILURES_PER_SOURCE must be a whole number from 1 to 10000; ' +
        'SIGNING_KEY_ID must not be empty; GRANT_CACHE_SECONDS must be a whole number from 0 to 300; ' +
        'LOG_LEVEL must be one of debug, info, warn, error, silent; WEBHOOK_ALLOW_LOOPBACK must be true or false.',
    );
  });
});
