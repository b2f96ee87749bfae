/**
 * Amazon SNS HTTP(S) deliveries, as far as they can be judged without the network: the envelope's
 * shape, the string its signature covers, where its signing certificate may come from, and whether it
 * is fresh. Pure; every refusal says why, and whether it is a malformed request (400) or a message
 * that does not prove where it came from (401).
 */
import * as z from 'zod';

export const messageTypes = ['SubscriptionConfirmation', 'Notification', 'UnsubscribeConfirmation'] as const;
export type MessageType = (typeof messageTypes)[number];

export interface SnsMessage {
  Type: MessageType;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
  UnsubscribeURL?: string;
  MessageAttributes?: Record<string, { Type: string; Value: string }>;
}

export interface Refusal {
  status: 400 | 401;
  detail: string;
}

/** The fields each type's signature covers, in the order they are signed. */
const signedFields: Record<MessageType, (keyof SnsMessage)[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** A field SNS always sends: a non-empty string, kept exactly as received (its signature covers it). */
const field = z.string().min(1);
const common = {
  MessageId: field,
  TopicArn: field,
  Message: field,
  Timestamp: field,
  SignatureVersion: field,
  Signature: field,
  SigningCertURL: field,
};
const confirmation = { ...common, Token: field, SubscribeURL: field };

/**
 * A notification's attributes, as SNS sends them: each name to its `Type` (String, String.Array, Number,
 * Binary) and `Value`, both strings (a Binary value is base64). The signature does not cover them, so
 * their shape is all that vouches for them before they are kept.
 */
const messageAttributes = z.record(z.string(), z.object({ Type: z.string(), Value: z.string() }));

/**
 * The envelope of an SNS HTTP delivery, by `Type`: the fields each type requires, and MessageAttributes'
 * shape when present. Other fields (UnsubscribeURL, …) pass through untouched. The OpenAPI document shows
 * this schema.
 */
export const snsEnvelope = z.discriminatedUnion('Type', [
  z.looseObject({
    Type: z.literal('Notification'),
    ...common,
    Subject: z.string().optional(),
    MessageAttributes: messageAttributes.optional(),
  }),
  z.looseObject({ Type: z.literal('SubscriptionConfirmation'), ...confirmation }),
  z.looseObject({ Type: z.literal('UnsubscribeConfirmation'), ...confirmation }),
]);

/** Why an envelope is refused; `typed` when its Type was one of the three (the header is judged first). */
const envelopeRefusal = (error: z.ZodError): { detail: string; typed: boolean } => {
  const fields = error.issues.map((issue) => String(issue.path[0] ?? ''));
  if (fields.includes('')) return { detail: 'The body is not an SNS message object.', typed: false };
  if (fields.includes('Type'))
    return { detail: `Type must be one of ${messageTypes.join(', ')}.`, typed: false };
  const missing = [...new Set(fields.filter((name) => name !== 'Subject' && name !== 'MessageAttributes'))];
  const details = [
    ...(missing.length > 0 ? [`Missing or non-string fields: ${missing.join(', ')}.`] : []),
    ...(fields.includes('Subject') ? ['Subject must be a string.'] : []),
    ...(fields.includes('MessageAttributes')
      ? ['MessageAttributes must map each name to {Type, Value}, both strings.']
      : []),
  ];
  return { detail: details.join(' '), typed: true };
};

/**
 * The envelope from the raw body, parsed once: the values are verified exactly as received. The
 * `x-amz-sns-message-type` header must agree with `Type`.
 */
export const parseEnvelope = (raw: string, headerType: string | undefined): SnsMessage | Refusal => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { status: 400, detail: 'The body is not JSON.' };
  }
  const envelope = snsEnvelope.safeParse(parsed);
  const refusal = envelope.success ? null : envelopeRefusal(envelope.error);
  if (refusal && !refusal.typed) return { status: 400, detail: refusal.detail };
  if (headerType !== (parsed as { Type: unknown }).Type) {
    return { status: 400, detail: 'The x-amz-sns-message-type header does not agree with Type.' };
  }
  if (refusal) return { status: 400, detail: refusal.detail };
  return envelope.data as SnsMessage;
};

export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === 'object' && value !== null && 'status' in value && 'detail' in value;

/** `Name\nValue\n` for each signed field present, in order. */
export const stringToSign = (message: SnsMessage): string =>
  signedFields[message.Type]
    .filter((field) => message[field] !== undefined)
    .map((field) => `${field}\n${String(message[field])}\n`)
    .join('');

/** The signature algorithm of a SignatureVersion; anything else is refused. */
export const signatureAlgorithm = (version: string): 'RSA-SHA1' | 'RSA-SHA256' | null =>
  version === '1' ? 'RSA-SHA1' : version === '2' ? 'RSA-SHA256' : null;

const TOPIC_ARN = /^arn:(aws|aws-cn):sns:([a-z]{2}(?:-[a-z]+)+-\d):(\d{12}):([A-Za-z0-9_-]{1,256})$/;

/** The partition's domain and the region of a topic ARN, or null if it is not one. */
export const topicLocation = (arn: string): { region: string; domain: string } | null => {
  const match = TOPIC_ARN.exec(arn);
  if (!match?.[1] || !match[2]) return null;
  return { region: match[2], domain: match[1] === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com' };
};

const CERT_FILE = /^\/SimpleNotificationService-[0-9a-f]+\.pem$/;

/**
 * Whether the certificate URL is exactly `<base>/SimpleNotificationService-<hex>.pem`, where the base
 * (from configuration) is filled in with the region and partition of the TopicArn: same scheme, host and
 * port, no user info, query or fragment, and nothing a URL parser would normalise away.
 */
export const certificateUrlRefusal = (
  certUrl: string,
  topicArn: string,
  baseTemplate: string,
): string | null => {
  const location = topicLocation(topicArn);
  if (!location) return 'TopicArn is not an SNS topic ARN.';
  const base = new URL(
    baseTemplate.replace('{region}', location.region).replace('{domain}', location.domain),
  );
  let url: URL;
  try {
    url = new URL(certUrl);
  } catch {
    return 'SigningCertURL is not a URL.';
  }
  const basePath = base.pathname.replace(/\/$/, '');
  const ok =
    url.href === certUrl &&
    url.protocol === base.protocol &&
    url.hostname === base.hostname &&
    url.port === base.port &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === '' &&
    url.pathname.startsWith(`${basePath}/`) &&
    CERT_FILE.test(url.pathname.slice(basePath.length));
  return ok ? null : `SigningCertURL must be ${base.origin}${basePath}/SimpleNotificationService-<hex>.pem.`;
};

/** SNS retries a delivery for up to an hour; anything older is a replay. A little clock skew is allowed. */
export const MAX_AGE_MS = 60 * 60 * 1000;
export const MAX_SKEW_MS = 5 * 60 * 1000;

export const timestampRefusal = (timestamp: string, now: number): string | null => {
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return 'Timestamp is not a date-time.';
  if (at < now - MAX_AGE_MS)
    return 'The message is older than the SNS retry window (one hour): refused as a replay.';
  if (at > now + MAX_SKEW_MS) return 'The message is dated in the future.';
  return null;
};
