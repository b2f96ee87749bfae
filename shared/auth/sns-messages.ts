/**
 * Proves that an SNS delivery came from one of the configured topics: the topic is allowed, the
 * signature version known, the message fresh, the signing certificate from SNS's own host for the
 * topic's region (configuration decides the pattern; a request cannot), and the signature over the
 * fields exactly as received verifies against that certificate. Certificates are fetched once per exact
 * URL (timeout, no redirects) and kept in a small bounded cache, so the hot path makes no network call.
 */
import { createVerify, X509Certificate } from 'node:crypto';
import { config } from '../config';
import {
  certificateUrlRefusal,
  isRefusal,
  parseEnvelope,
  type SnsMessage,
  signatureAlgorithm,
  stringToSign,
  timestampRefusal,
} from '../domain/sns-message';
import { ApiError, ValidationError } from '../jsonapi/errors';

const CERTIFICATE_CACHE_SIZE = 16;
const FETCH_TIMEOUT_MS = 3000;

const certificates = new Map<string, X509Certificate>();

const unverified = (detail: string) =>
  new ApiError(401, 'You are not authorised to access this resource', { code: 'AUTH.001', detail });

/** The certificate at an already-vetted URL. A failure to fetch is a fault (500), so SNS retries. */
const certificateAt = async (url: string, now: number): Promise<X509Certificate> => {
  let certificate = certificates.get(url);
  if (!certificate) {
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`Fetching the SNS signing certificate answered ${response.status}`);
    certificate = new X509Certificate(await response.text());
    if (certificates.size >= CERTIFICATE_CACHE_SIZE) {
      const [oldest] = certificates.keys();
      if (oldest !== undefined) certificates.delete(oldest);
    }
    certificates.set(url, certificate);
  }
  if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) {
    throw unverified('The signing certificate is not valid now.');
  }
  return certificate;
};

export const allowedTopics = (): string[] =>
  config.SNS_TOPIC_ARNS.split(',')
    .map((arn) => arn.trim())
    .filter((arn) => arn !== '');

export const verifySnsMessage = async (
  raw: string,
  headers: Readonly<Record<string, string | undefined>>,
  now = Date.now(),
): Promise<SnsMessage> => {
  if (headers['x-amz-sns-rawdelivery'] === 'true') {
    throw unverified('Raw message delivery carries no signature; subscribe without it.');
  }
  const message = parseEnvelope(raw, headers['x-amz-sns-message-type']);
  if (isRefusal(message)) {
    throw message.status === 400
      ? new ValidationError({ detail: message.detail })
      : unverified(message.detail);
  }
  if (!allowedTopics().includes(message.TopicArn))
    throw unverified('The TopicArn is not one this service accepts.');
  const algorithm = signatureAlgorithm(message.SignatureVersion);
  if (!algorithm) throw unverified('SignatureVersion must be 1 or 2.');
  const stale = timestampRefusal(message.Timestamp, now);
  if (stale) throw unverified(stale);
  const badUrl = certificateUrlRefusal(message.SigningCertURL, message.TopicArn, config.SNS_CERT_URL_BASE);
  if (badUrl) throw unverified(badUrl);
  const certificate = await certificateAt(message.SigningCertURL, now);
  const verified = createVerify(algorithm)
    .update(stringToSign(message), 'utf8')
    .verify(certificate.publicKey, message.Signature, 'base64');
  if (!verified) throw unverified('The signature does not verify.');
  return message;
};
