/**
 * POST /street-works/protections, the national street-works service's SNS subscription: every message
 * must prove where it came from, and a verified notification becomes a protection and moves its permit
 * exactly once. SNS is played on loopback (test/support/sns.ts) with a CA and key made for the run.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '#shared/data/repository';
import {
  type ClientCredentials,
  createOrganisation,
  createServiceAccountClient,
} from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { itemCount } from '../support/item-count';
import { metricLines, writtenWhile } from '../support/output';
import { type Fields, type LoopbackSns, sign, startLoopbackSns, testAuthority } from '../support/sns';
import { STREET_WORKS_ORGS, STREET_WORKS_TOPICS } from '../support/street-works-config';

const [TOPIC = '', CN_TOPIC = ''] = STREET_WORKS_TOPICS;
const authority = testAuthority();
const certBase = process.env.SNS_CERT_URL_BASE ?? '';
const certUrlFor = (region: string, domain = 'amazonaws.com') =>
  `${certBase.replace('{region}', region).replace('{domain}', domain)}/SimpleNotificationService-0123456789abcdef.pem`;
const CERT_URL = certUrlFor('eu-west-2');

let api: TestApi;
let sns: LoopbackSns;
const tokens: Record<'main' | 'other', string> = { main: '', other: '' };

beforeAll(async () => {
  api = await startTestApi();
  const port = (url: string | undefined) => Number(new URL(url ?? '').port);
  sns = await startLoopbackSns(
    authority.signingPem,
    port(certBase.replace(/\{\w+\}/g, 'x')),
    port(process.env.SNS_ENDPOINT),
  );
  const clients: ClientCredentials[] = [];
  for (const [name, id] of [
    ['Thames Works', STREET_WORKS_ORGS.TW],
    ['Thames Works X', STREET_WORKS_ORGS.TWX],
  ] as const) {
    await createOrganisation(
      { name, slug: name.toLowerCase().replace(/ /g, '-'), description: 'Street works' },
      undefined,
      id,
    );
    clients.push(await createServiceAccountClient(`${name} admin`, [{ org_id: id, role: 'admin' }]));
  }
  tokens.main = await api.token(clients[0] as ClientCredentials);
  tokens.other = await api.token(clients[1] as ClientCredentials);
});
afterAll(async () => {
  await sns.close();
  await api.close();
});

let clock = Date.parse('2026-11-22T09:00:00Z');
/** A national-service event, each a minute after the previous one. */
const event = (reference: string, event_type: string, extra: Record<string, unknown> = {}) => {
  clock += 60_000;
  return {
    event_reference: randomUUID(),
    event_type,
    object_type: event_type.startsWith('ACTIVITY') ? 'ACTIVITY' : 'PERMIT',
    object_reference: reference,
    event_time: new Date(clock).toISOString(),
    object_data: { usrn: '20100123', works_location_description: 'Outside 12 High Street' },
    version: 1,
    ...extra,
  };
};

const notification = (body: object, overrides: Partial<Fields> = {}): Fields => ({
  Type: 'Notification',
  MessageId: randomUUID(),
  TopicArn: TOPIC,
  Subject: 'Permit event',
  Message: JSON.stringify(body),
  Timestamp: new Date().toISOString(),
  SigningCertURL: CERT_URL,
  UnsubscribeURL: 'https://sns.eu-west-2.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x',
  MessageAttributes: {
    area: { Type: 'String', Value: 'London' },
    promoter_org: { Type: 'String', Value: 'TW' },
  },
  ...overrides,
});

const subscription = (
  type: 'SubscriptionConfirmation' | 'UnsubscribeConfirmation' = 'SubscriptionConfirmation',
): Fields => ({
  Type: type,
  MessageId: randomUUID(),
  Token: randomUUID().replace(/-/g, ''),
  TopicArn: TOPIC,
  Message: `You have chosen to subscribe to the topic ${TOPIC}.`,
  SubscribeURL: `${certBase.replace('{region}', 'eu-west-2').replace('{domain}', 'amazonaws.com')}/?Action=ConfirmSubscription`,
  Timestamp: new Date().toISOString(),
  SigningCertURL: CERT_URL,
});

const deliver = (message: object | string, headers: Record<string, string> = {}) =>
  api.request('POST', '/street-works/protections', {
    headers: {
      'content-type': 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': typeof message === 'string' ? '' : String((message as Fields).Type),
      ...headers,
    },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });

/** Delivers and expects a refusal with nothing written and, for URL/topic checks, no certificate fetched. */
const refused = async (message: object | string, status: number, headers: Record<string, string> = {}) => {
  const before = await itemCount();
  const res = await deliver(message, headers);
  expect(res.status, res.text).toBe(status);
  expect(res.body.errors[0].status).toBe(String(status));
  expect(await itemCount()).toBe(before);
  return res;
};

describe('signature verification (SignatureVersion 1 and 2)', () => {
  it('a notification signed with SHA256withRSA (version 2) is accepted: 200 naming the protection', async () => {
    const res = await deliver(
      sign(notification(event('TW0100001', 'PERMIT_SUBMITTED')), authority.signingKey, '2'),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'street-works-protections',
      attributes: { event_type: 'PERMIT_SUBMITTED', applied: true },
    });
    expect(res.body.meta).toEqual({ duplicate: false });
  });

  it('a notification signed with SHA1withRSA (version 1) is accepted', async () => {
    const res = await deliver(
      sign(notification(event('TW0100002', 'PERMIT_SUBMITTED')), authority.signingKey, '1'),
    );
    expect(res.status, res.text).toBe(200);
  });

  it('any other SignatureVersion is refused (401)', async () => {
    const signed = sign(notification(event('TW0100003', 'PERMIT_SUBMITTED')), authority.signingKey);
    await refused({ ...signed, SignatureVersion: '3' }, 401);
  });

  it.each(['Message', 'MessageId', 'Subject', 'Timestamp'])(
    'tampering with the signed field %s is 401, nothing written',
    async (field) => {
      const signed = sign(notification(event('TW0100004', 'PERMIT_GRANTED')), authority.signingKey);
      const value =
        field === 'Timestamp'
          ? new Date(Date.now() - 1000).toISOString()
          : field === 'Message'
            ? JSON.stringify(event('TW0100004', 'PERMIT_REVOKED'))
            : `${signed[field]}x`;
      await refused({ ...signed, [field]: value }, 401);
    },
  );

  it('tampering with Type (an unsubscription passed off as a subscription) is 401', async () => {
    const signed = sign(subscription('UnsubscribeConfirmation'), authority.signingKey);
    await refused({ ...signed, Type: 'SubscriptionConfirmation' }, 401);
    expect(sns.confirmations.filter((c) => c.Token === signed.Token)).toEqual([]);
  });

  it('tampering with TopicArn (another configured topic) is 401', async () => {
    const signed = sign(notification(event('TW0100005', 'PERMIT_GRANTED')), authority.signingKey);
    await refused(
      { ...signed, TopicArn: CN_TOPIC, SigningCertURL: certUrlFor('cn-north-1', 'amazonaws.com.cn') },
      401,
    );
  });

  it('a message signed by a key other than the certificate’s is 401, counted as the StreetWorksRejected metric (issue 20: it alarms)', async () => {
    const { lines } = await writtenWhile(() =>
      refused(sign(notification(event('TW0100006', 'PERMIT_GRANTED')), authority.otherKey), 401),
    );
    expect(metricLines(lines)).toEqual([
      expect.objectContaining({ StreetWorksRejected: 1, Stage: 'test', service: 'compliance-api' }),
    ]);
  });

  it('the values are verified exactly as received: re-serialising the Message breaks the signature', async () => {
    const body = { ...event('TW0100007', 'PERMIT_GRANTED') };
    const signed = sign(notification(body, { Message: JSON.stringify(body, null, 2) }), authority.signingKey);
    expect((await deliver(signed)).status).toBe(200);
    await refused({ ...signed, MessageId: randomUUID(), Message: JSON.stringify(body) }, 401);
  });
});

describe('SigningCertURL', () => {
  const host = new URL(CERT_URL);
  const file = '/SimpleNotificationService-0123456789abcdef.pem';
  const path = host.pathname.replace(file, '');
  const cases: [string, string][] = [
    ['a look-alike host (localhost for 127.0.0.1)', CERT_URL.replace('127.0.0.1', 'localhost')],
    ['the https scheme where http is configured', CERT_URL.replace('http:', 'https:')],
    ['user info', CERT_URL.replace('http://', 'http://sns@')],
    ['another port', CERT_URL.replace(`:${host.port}`, `:${Number(host.port) + 1}`)],
    ['a query', `${CERT_URL}?x=1`],
    ['a fragment', `${CERT_URL}#x`],
    ['another region than the TopicArn', certUrlFor('us-east-1')],
    ['a file that is not SimpleNotificationService-<hex>.pem', CERT_URL.replace(file, '/cert.pem')],
    ['a path escaping the base', `http://127.0.0.1:${host.port}${path}/../x${file}`],
    ['an encoded path', CERT_URL.replace('SimpleNotificationService', 'Simple%4EotificationService')],
  ];
  it.each(cases)('%s is 401, without fetching anything', async (_name, url) => {
    const fetches = sns.certificateFetches.length;
    await refused(
      sign(notification(event('TW0100010', 'PERMIT_GRANTED'), { SigningCertURL: url }), authority.signingKey),
      401,
    );
    expect(sns.certificateFetches.length).toBe(fetches);
  });

  it('a certificate is fetched once per URL and then served from the cache', async () => {
    const fetchesOf = () => sns.certificateFetches.filter((p) => CERT_URL.endsWith(p)).length;
    for (const ref of ['TW0100011', 'TW0100012']) {
      expect(
        (await deliver(sign(notification(event(ref, 'PERMIT_SUBMITTED')), authority.signingKey))).status,
      ).toBe(200);
    }
    expect(fetchesOf()).toBe(1);
  });

  it('a certificate that cannot be fetched is a fault (500, so SNS retries), nothing written', async () => {
    const url = CERT_URL.replace('0123456789abcdef', 'fffff');
    await refused(
      sign(notification(event('TW0100013', 'PERMIT_GRANTED'), { SigningCertURL: url }), authority.signingKey),
      500,
    );
  });
});

describe('the envelope', () => {
  it('a TopicArn that is not configured is 401 without further work (no certificate fetched)', async () => {
    const fetches = sns.certificateFetches.length;
    const topic = 'arn:aws:sns:eu-west-2:123456789012:someone-else';
    await refused(
      sign(notification(event('TW0100020', 'PERMIT_GRANTED'), { TopicArn: topic }), authority.signingKey),
      401,
    );
    expect(sns.certificateFetches.length).toBe(fetches);
  });

  it('a replay older than the retry window (one hour) is 401', async () => {
    const old = new Date(Date.now() - 61 * 60_000).toISOString();
    await refused(
      sign(notification(event('TW0100021', 'PERMIT_GRANTED'), { Timestamp: old }), authority.signingKey),
      401,
    );
  });

  it('a message dated beyond the allowed clock skew in the future is 401', async () => {
    const future = new Date(Date.now() + 10 * 60_000).toISOString();
    await refused(
      sign(notification(event('TW0100022', 'PERMIT_GRANTED'), { Timestamp: future }), authority.signingKey),
      401,
    );
  });

  it('a message type header that disagrees with Type is 400', async () => {
    const signed = sign(notification(event('TW0100023', 'PERMIT_GRANTED')), authority.signingKey);
    await refused(signed, 400, { 'x-amz-sns-message-type': 'SubscriptionConfirmation' });
  });

  it('raw message delivery is refused (401): there is nothing to verify', async () => {
    await refused(event('TW0100024', 'PERMIT_GRANTED'), 401, {
      'x-amz-sns-rawdelivery': 'true',
      'x-amz-sns-message-type': 'Notification',
    });
  });

  it('malformed JSON and a missing field are 400', async () => {
    await refused('{"Type": "Notification",', 400, { 'x-amz-sns-message-type': 'Notification' });
    const { Signature: _s, ...unsigned } = sign(
      notification(event('TW0100025', 'PERMIT_GRANTED')),
      authority.signingKey,
    );
    await refused(unsigned, 400);
  });

  const malformedAttributes: [string, unknown][] = [
    ['a Value that is a number', { area: { Type: 'Number', Value: 5 } }],
    ['a Value that is an object', { area: { Type: 'String', Value: { name: 'London' } } }],
    ['a missing Value', { area: { Type: 'String' } }],
    ['a null Value', { area: { Type: 'String', Value: null } }],
    ['an attribute that is null', { area: null }],
    ['a missing Type', { area: { Value: 'London' } }],
    ['attributes that are an array', [{ Type: 'String', Value: 'London' }]],
    ['attributes that are a string', 'area=London'],
  ];
  it.each(malformedAttributes)(
    'MessageAttributes with %s is 400 at MessageAttributes, nothing written (each attribute is {Type, Value}, both strings)',
    async (_name, attributes) => {
      const signed = sign(
        notification(event('TW0100028', 'PERMIT_SUBMITTED'), { MessageAttributes: attributes }),
        authority.signingKey,
      );
      const res = await refused(signed, 400);
      expect(res.body.errors[0].detail).toMatch(/MessageAttributes/);
    },
  );

  it('a verified Message that is not a street-works event is 400, nothing written', async () => {
    await refused(
      sign(notification(event('TW0100026', 'PERMIT_GRANTED'), { Message: 'not json' }), authority.signingKey),
      400,
    );
    const { object_reference: _r, ...incomplete } = event('TW0100026', 'PERMIT_GRANTED');
    await refused(sign(notification(incomplete), authority.signingKey), 400);
  });

  it('text/plain and application/json bodies are accepted; any other media type is 415', async () => {
    const signed = sign(notification(event('TW0100027', 'PERMIT_SUBMITTED')), authority.signingKey);
    await refused(signed, 415, { 'content-type': 'application/xml' });
    expect((await deliver(signed, { 'content-type': 'application/json' })).status).toBe(200);
  });
});

describe('subscriptions', () => {
  it('a SubscriptionConfirmation is confirmed through ConfirmSubscription with AuthenticateOnUnsubscribe, never by fetching SubscribeURL', async () => {
    const message = sign(subscription(), authority.signingKey);
    const res = await deliver(message);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.subscription).toMatchObject({ status: 'confirmed', topic_arn: TOPIC });
    const call = sns.confirmations.find((c) => c.Token === message.Token);
    expect(call).toMatchObject({
      Action: 'ConfirmSubscription',
      TopicArn: TOPIC,
      AuthenticateOnUnsubscribe: 'true',
    });
    expect(call?.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=local\/\d+\/eu-west-2\/sns\/aws4_request/,
    );
    expect(sns.certificateFetches.some((p) => p.includes('ConfirmSubscription'))).toBe(false);
    expect(await getItem({ pk: `SNS#${TOPIC}`, sk: 'SUBSCRIPTION' })).toMatchObject({ status: 'confirmed' });
  });

  it('an UnsubscribeConfirmation is verified, recorded and raised as the StreetWorksUnsubscribed metric', async () => {
    const { result: res, lines } = await writtenWhile(() =>
      deliver(sign(subscription('UnsubscribeConfirmation'), authority.signingKey)),
    );
    expect(res.status, res.text).toBe(200);
    const [metric] = metricLines(lines);
    expect(metric).toMatchObject({ StreetWorksUnsubscribed: 1, Stage: 'test' });
    expect(await getItem({ pk: `SNS#${TOPIC}`, sk: 'SUBSCRIPTION' })).toMatchObject({
      status: 'unsubscribed',
    });
  });
});

describe('protections and permits', () => {
  const permitOf = async (reference: string, token = tokens.main, org: string = STREET_WORKS_ORGS.TW) => {
    const res = await api.get(
      `/v3/orgs/${org}/street-works/permits?filter[reference]=${reference}&include=protections`,
      token,
    );
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('a redelivered message, several at once, changes nothing and answers 200 with the same protection', async () => {
    const message = sign(notification(event('TW0200001', 'PERMIT_SUBMITTED')), authority.signingKey);
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(message)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.meta.duplicate === false)).toHaveLength(1);
    const permit = await permitOf('TW0200001');
    expect(permit.data).toHaveLength(1);
    expect(permit.data[0].relationships.protections.data).toHaveLength(1);
  });

  it('a later event updates the permit keyed by object_reference and never duplicates it', async () => {
    for (const type of ['PERMIT_SUBMITTED', 'PERMIT_GRANTED', 'WORK_START']) {
      expect((await deliver(sign(notification(event('TW0200002', type)), authority.signingKey))).status).toBe(
        200,
      );
    }
    const permit = await permitOf('TW0200002');
    expect(permit.data).toHaveLength(1);
    expect(permit.data[0].attributes).toMatchObject({
      reference: 'TW0200002',
      status: 'granted',
      work_status: 'in_progress',
      usrn: '20100123',
    });
    expect(permit.included).toHaveLength(3);
  });

  it('an event older than the permit’s latest is recorded but does not move its status back', async () => {
    const granted = event('TW0200003', 'PERMIT_GRANTED');
    const earlier = {
      ...event('TW0200003', 'PERMIT_SUBMITTED'),
      event_time: new Date(Date.parse(granted.event_time) - 3600_000).toISOString(),
    };
    await deliver(sign(notification(granted), authority.signingKey));
    const late = await deliver(sign(notification(earlier), authority.signingKey));
    expect(late.status).toBe(200);
    expect(late.body.data.attributes.applied).toBe(false);
    expect((await permitOf('TW0200003')).data[0].attributes.status).toBe('granted');
  });

  it('object_data.permit_status wins over the status the event type implies', async () => {
    await deliver(
      sign(
        notification(
          event('TW0200004', 'PERMIT_GRANTED', {
            object_data: { permit_status: 'permit_modification_request' },
          }),
        ),
        authority.signingKey,
      ),
    );
    expect((await permitOf('TW0200004')).data[0].attributes.status).toBe('permit_modification_request');
  });

  it('an unknown event type is stored and acknowledged, and moves nothing', async () => {
    await deliver(sign(notification(event('TW0200005', 'PERMIT_GRANTED')), authority.signingKey));
    const res = await deliver(
      sign(notification(event('TW0200005', 'PERMIT_TELEPORTED')), authority.signingKey),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ event_type: 'PERMIT_TELEPORTED', applied: false });
    expect((await permitOf('TW0200005')).data[0].attributes.status).toBe('granted');
  });

  it('unknown members of the event are kept, not refused', async () => {
    const res = await deliver(
      sign(
        notification(
          event('TW0200006', 'PERMIT_SUBMITTED', { traffic_management: { type: 'two-way signals' } }),
        ),
        authority.signingKey,
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.event.traffic_management).toEqual({ type: 'two-way signals' });
    expect(res.body.data.attributes.message_attributes).toEqual({ area: 'London', promoter_org: 'TW' });
  });

  it('activities are their own records (street-works), keyed by reference', async () => {
    await deliver(sign(notification(event('TW0300001', 'ACTIVITY_CREATED')), authority.signingKey));
    await deliver(sign(notification(event('TW0300001', 'ACTIVITY_CANCELLED')), authority.signingKey));
    const res = await api.get(
      `/v3/orgs/${STREET_WORKS_ORGS.TW}/street-works/activities?filter[reference]=TW0300001`,
      tokens.main,
    );
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].attributes.status).toBe('cancelled');
    expect((await api.get(`/v3/street-works/${res.body.data[0].id}`, tokens.main)).status).toBe(200);
  });

  it('the longest configured reference prefix decides the organisation; the other organisation cannot see it (404)', async () => {
    const res = await deliver(
      sign(notification(event('TWX0400001', 'PERMIT_SUBMITTED')), authority.signingKey),
    );
    expect(res.body.data.relationships.organisation.data.id).toBe(STREET_WORKS_ORGS.TWX);
    const permitId = res.body.data.relationships.permit.data.id;
    expect((await api.get(`/v3/permits/${permitId}`, tokens.other)).status).toBe(200);
    expect((await api.get(`/v3/permits/${permitId}`, tokens.main)).status).toBe(404);
    expect((await permitOf('TWX0400001')).data).toHaveLength(0);
  });

  it('a reference no organisation is configured for is acknowledged (200) and parked, in no organisation', async () => {
    const message = sign(notification(event('ZZ0500001', 'PERMIT_SUBMITTED')), authority.signingKey);
    const res = await deliver(message);
    expect(res.status).toBe(200);
    expect(res.body.meta.protection).toMatchObject({ status: 'unrouted', message_id: message.MessageId });
    expect(await getItem({ pk: 'STREET_WORKS#unrouted', sk: `${TOPIC}#${message.MessageId}` })).toBeTruthy();
  });

  it('permits filter by status and by a latest_event_time window; protections list by event type', async () => {
    const since = new Date(clock).toISOString();
    await deliver(sign(notification(event('TW0600001', 'PERMIT_REFUSED')), authority.signingKey));
    const refusedPermits = await api.get(
      `/v3/orgs/${STREET_WORKS_ORGS.TW}/street-works/permits?filter[status]=refused&filter[latest_event_time.since]=${since}`,
      tokens.main,
    );
    expect(
      refusedPermits.body.data.map((p: { attributes: { reference: string } }) => p.attributes.reference),
    ).toEqual(['TW0600001']);
    const list = await api.get(
      `/v3/orgs/${STREET_WORKS_ORGS.TW}/street-works/protections?filter[event_type]=PERMIT_REFUSED`,
      tokens.main,
    );
    expect(list.body.data.length).toBeGreaterThanOrEqual(1);
    const one = await api.get(
      `/v3/street-works-protections/${list.body.data[0].id}?include=permit`,
      tokens.main,
    );
    expect(one.body.included[0].type).toBe('permits');
  });

  it("the feed's writes keep a permit's status count: a filter's total as the permits hold it", async () => {
    // A permit moved from one status to another leaves the first count and joins the second; a page in
    // creation order takes its total from the count (in another order it counts the matches it sorts).
    await deliver(sign(notification(event('TW0700001', 'PERMIT_SUBMITTED')), authority.signingKey));
    await deliver(sign(notification(event('TW0700001', 'PERMIT_GRANTED')), authority.signingKey));
    const base = `/v3/orgs/${STREET_WORKS_ORGS.TW}/street-works`;
    for (const [collection, field] of [['permits', 'status']] as const) {
      const all = await api.get(`${base}/${collection}?page[limit]=100`, tokens.main);
      expect(all.body.meta.pagination.counts.resources).toBeLessThan(100);
      const held = new Map<string, number>();
      for (const record of all.body.data as { attributes: Record<string, unknown> }[]) {
        const value = record.attributes[field];
        if (value !== null) held.set(String(value), (held.get(String(value)) ?? 0) + 1);
      }
      expect(held.size, collection).toBeGreaterThan(1);
      for (const [value, count] of held) {
        const page = await api.get(
          `${base}/${collection}?filter[${field}]=${value}&sort=-created_at&page[limit]=1`,
          tokens.main,
        );
        expect(page.body.meta.pagination.counts.resources, `${collection} ${field}=${value}`).toBe(count);
      }
    }
  });
});

describe('recorded-shape fixtures (field names and order as AWS documents them)', () => {
  const fixture = (name: string) =>
    JSON.parse(readFileSync(resolve(import.meta.dirname, `../fixtures/sns/${name}.json`), 'utf8')) as Fields;

  it('a SubscriptionConfirmation in AWS’s documented shape is confirmed', async () => {
    const recorded = fixture('subscription-confirmation');
    expect(Object.keys(recorded)).toEqual([
      'Type',
      'MessageId',
      'Token',
      'TopicArn',
      'Message',
      'SubscribeURL',
      'Timestamp',
      'SignatureVersion',
      'Signature',
      'SigningCertURL',
    ]);
    const message = sign(
      { ...recorded, TopicArn: TOPIC, Timestamp: new Date().toISOString(), SigningCertURL: CERT_URL },
      authority.signingKey,
      '1',
    );
    expect((await deliver(message)).status).toBe(200);
  });

  it('a Notification in AWS’s documented shape (with a street-works Message) is processed', async () => {
    const recorded = fixture('notification');
    expect(Object.keys(recorded)).toEqual([
      'Type',
      'MessageId',
      'TopicArn',
      'Subject',
      'Message',
      'Timestamp',
      'SignatureVersion',
      'Signature',
      'SigningCertURL',
      'UnsubscribeURL',
      'MessageAttributes',
    ]);
    const message = sign(
      {
        ...recorded,
        TopicArn: TOPIC,
        Message: JSON.stringify(event('TW0700001', 'PERMIT_SUBMITTED')),
        Timestamp: new Date().toISOString(),
        SigningCertURL: CERT_URL,
      },
      authority.signingKey,
      '1',
    );
    const res = await deliver(message);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.message_attributes).toEqual({ area: 'London' });
  });
});
