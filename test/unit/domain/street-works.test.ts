import { describe, expect, it } from 'vitest';
import { applyEvent, organisationFor, type StreetWorksEvent } from '#functions/street-works/rules/events';
import {
  certificateUrlRefusal,
  parseEnvelope,
  type SnsMessage,
  stringToSign,
  timestampRefusal,
} from '#shared/domain/sns-message';

/** The production default: a request cannot change it. */
const PRODUCTION = 'https://sns.{region}.{domain}';
const TOPIC = 'arn:aws:sns:eu-west-2:123456789012:street-works';
const FILE = '/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem';

describe('SigningCertURL under the production configuration', () => {
  it('accepts exactly https://sns.<region of the TopicArn>.amazonaws.com/SimpleNotificationService-<hex>.pem', () => {
    expect(certificateUrlRefusal(`https://sns.eu-west-2.amazonaws.com${FILE}`, TOPIC, PRODUCTION)).toBeNull();
  });

  it('accepts the China partition’s host for an aws-cn topic, and only for it', () => {
    const cn = 'arn:aws-cn:sns:cn-north-1:123456789012:street-works';
    expect(
      certificateUrlRefusal(`https://sns.cn-north-1.amazonaws.com.cn${FILE}`, cn, PRODUCTION),
    ).toBeNull();
    expect(
      certificateUrlRefusal(`https://sns.cn-north-1.amazonaws.com${FILE}`, cn, PRODUCTION),
    ).not.toBeNull();
    expect(
      certificateUrlRefusal(`https://sns.eu-west-2.amazonaws.com.cn${FILE}`, TOPIC, PRODUCTION),
    ).not.toBeNull();
  });

  it.each([
    ['an S3 bucket address', `https://sns.s3-eu-west-2.amazonaws.com${FILE}`],
    ['s3.amazonaws.com', `https://s3.amazonaws.com${FILE}`],
    ['a host with the real one as a prefix', `https://sns.eu-west-2.amazonaws.com.evil.example${FILE}`],
    ['the real host as a path', `https://evil.example/sns.eu-west-2.amazonaws.com${FILE}`],
    ['the http scheme', `http://sns.eu-west-2.amazonaws.com${FILE}`],
    ['user info', `https://sns.eu-west-2.amazonaws.com@evil.example${FILE}`],
    ['user info before the real host', `https://x@sns.eu-west-2.amazonaws.com${FILE}`],
    ['a port', `https://sns.eu-west-2.amazonaws.com:8443${FILE}`],
    ['a query', `https://sns.eu-west-2.amazonaws.com${FILE}?a=b`],
    ['a fragment', `https://sns.eu-west-2.amazonaws.com${FILE}#x`],
    ['another region than the TopicArn', `https://sns.us-east-1.amazonaws.com${FILE}`],
    ['upper case (normalised by URL parsers)', `https://SNS.eu-west-2.amazonaws.com${FILE}`],
    ['a dot segment', `https://sns.eu-west-2.amazonaws.com/x/..${FILE}`],
    ['another file', 'https://sns.eu-west-2.amazonaws.com/SimpleNotificationService-xyz.pem'],
    ['not a URL', 'sns.eu-west-2.amazonaws.com'],
  ])('refuses %s', (_name, url) => {
    expect(certificateUrlRefusal(url, TOPIC, PRODUCTION)).toMatch(/SigningCertURL/);
  });

  it('refuses everything for a TopicArn that is not an SNS topic ARN', () => {
    expect(
      certificateUrlRefusal(`https://sns.eu-west-2.amazonaws.com${FILE}`, 'arn:aws:s3:::bucket', PRODUCTION),
    ).toMatch(/TopicArn/);
  });
});

describe('the envelope', () => {
  const fields = {
    Type: 'Notification',
    MessageId: 'm',
    TopicArn: TOPIC,
    Message: 'hello',
    Timestamp: '2026-11-22T10:00:00.000Z',
    SignatureVersion: '2',
    Signature: 's',
    SigningCertURL: 'u',
  };

  it('the string to sign lists Name\\nValue\\n in AWS’s order, Subject only when present', () => {
    expect(stringToSign(fields as SnsMessage)).toBe(
      'Message\nhello\nMessageId\nm\nTimestamp\n2026-11-22T10:00:00.000Z\nTopicArn\narn:aws:sns:eu-west-2:123456789012:street-works\nType\nNotification\n',
    );
    expect(stringToSign({ ...fields, Subject: 'S' } as SnsMessage)).toContain(
      'MessageId\nm\nSubject\nS\nTimestamp',
    );
    const confirmation = {
      ...fields,
      Type: 'SubscriptionConfirmation',
      Token: 't',
      SubscribeURL: 'https://x',
    };
    expect(stringToSign(confirmation as SnsMessage)).toBe(
      `Message\nhello\nMessageId\nm\nSubscribeURL\nhttps://x\nTimestamp\n2026-11-22T10:00:00.000Z\nToken\nt\nTopicArn\n${TOPIC}\nType\nSubscriptionConfirmation\n`,
    );
  });

  it('parses the raw body once and keeps the values as received', () => {
    const raw = JSON.stringify({ ...fields, Message: '{"a": 1,  "b":2}' });
    expect(parseEnvelope(raw, 'Notification')).toMatchObject({ Message: '{"a": 1,  "b":2}' });
  });

  it('a header that disagrees with Type, a missing field, or a confirmation without Token is 400', () => {
    expect(parseEnvelope(JSON.stringify(fields), 'SubscriptionConfirmation')).toMatchObject({ status: 400 });
    const { Signature: _s, ...unsigned } = fields;
    expect(parseEnvelope(JSON.stringify(unsigned), 'Notification')).toMatchObject({
      status: 400,
      detail: /Signature/,
    });
    const confirmation = { ...fields, Type: 'SubscriptionConfirmation', SubscribeURL: 'x' };
    expect(parseEnvelope(JSON.stringify(confirmation), 'SubscriptionConfirmation')).toMatchObject({
      status: 400,
      detail: /Token/,
    });
  });

  it('MessageAttributes, when present, map each name to {Type, Value}, both strings (400 otherwise)', () => {
    const withAttributes = (MessageAttributes: unknown) =>
      parseEnvelope(JSON.stringify({ ...fields, MessageAttributes }), 'Notification');
    expect(withAttributes({ area: { Type: 'String', Value: 'London' } })).toMatchObject({
      MessageAttributes: { area: { Value: 'London' } },
    });
    expect(withAttributes({})).toMatchObject({ MessageAttributes: {} });
    for (const malformed of [{ area: { Type: 'Number', Value: 5 } }, { area: null }, [], 'x', null])
      expect(withAttributes(malformed)).toEqual({
        status: 400,
        detail: 'MessageAttributes must map each name to {Type, Value}, both strings.',
      });
  });

  it('a Timestamp older than an hour, or more than five minutes ahead, is refused', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(timestampRefusal('2026-11-22T09:00:01Z', now)).toBeNull();
    expect(timestampRefusal('2026-11-22T08:59:59Z', now)).toMatch(/replay/);
    expect(timestampRefusal('2026-11-22T10:04:59Z', now)).toBeNull();
    expect(timestampRefusal('2026-11-22T10:05:01Z', now)).toMatch(/future/);
    expect(timestampRefusal('yesterday', now)).toMatch(/date-time/);
  });
});

describe('street-works events', () => {
  const at = (event_type: string, event_time: string, object_data = {}): StreetWorksEvent => ({
    event_reference: 'e',
    event_type,
    object_type: 'PERMIT',
    object_reference: 'TW1',
    event_time,
    object_data,
  });

  it('moves a permit forward, and never back for an older event', () => {
    const granted = applyEvent(null, at('PERMIT_GRANTED', '2026-11-22T10:00:00Z', { usrn: 123 }));
    expect(granted).toMatchObject({
      applied: true,
      state: { status: 'granted', work_status: 'not_started', usrn: '123' },
    });
    const older = applyEvent(granted.state, at('PERMIT_SUBMITTED', '2026-11-22T09:00:00Z'));
    expect(older).toEqual({ applied: false, state: granted.state });
    const started = applyEvent(granted.state, at('WORK_START', '2026-11-22T11:00:00Z'));
    expect(started.state).toMatchObject({ status: 'granted', work_status: 'in_progress' });
    expect(
      applyEvent(started.state, at('WORK_START_REVERTED', '2026-11-22T12:00:00Z')).state.work_status,
    ).toBe('not_started');
  });

  it('an unknown event type moves nothing, prototype-chain names included', () => {
    for (const type of ['PERMIT_TELEPORTED', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(applyEvent(null, at(type, '2026-11-22T10:00:00Z')).applied, type).toBe(false);
  });

  it('routes by the longest configured prefix; nothing matches → null', () => {
    const mapping = 'TW=org-a, TWX=org-b,SE=org-c';
    expect(organisationFor('TWX0001', mapping)).toBe('org-b');
    expect(organisationFor('TW0001', mapping)).toBe('org-a');
    expect(organisationFor('ZZ0001', mapping)).toBeNull();
    expect(organisationFor('TW0001', '')).toBeNull();
  });
});
