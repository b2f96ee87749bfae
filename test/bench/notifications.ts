/**
 * The inbox (issue 43): at 10,000 envelopes for one user, what a page and the counts read (items a Query
 * scanned, each key a GetItem or BatchGetItem asked), against what they return plus the state item;
 * "mark all read" at 100 and at 10,000 envelopes (write calls and items written); `writeEnvelopes` of one
 * event to 1,000 recipients (calls by kind); the whole consumer (`deliverNotifications`) fanning one
 * notice to everyone of an organisation of 1,000 users: calls by kind, items read and written, and the
 * mails SES received (the emulator's outbox, counted before and after); and a digest window of 500 events
 * mailed by its due work (calls and items read by the run, and the e-mails sent). Through the area's own
 * functions, in process.
 */
import { randomUUID } from 'node:crypto';
import { runDue } from '#functions/due-work/run';
import { deliverNotifications } from '#functions/notifications/deliver';
import { sendDigest } from '#functions/notifications/digest-run';
import { type Envelope, writeEnvelopes } from '#functions/notifications/envelopes';
import { readInboxPage } from '#functions/notifications/inbox-page';
import { readState } from '#functions/notifications/inbox-state';
import { markThrough } from '#functions/notifications/inbox-writes';
import { createNotice } from '#functions/notifications/notice-writes';
import { dynamodb } from '#shared/data/clients';
import { dueEntries } from '#shared/data/due-work';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { createOrganisation, createUser } from '../../infra/local/records';
import { latestEvent } from '../support/event-stream';

interface Tally {
  calls: Record<string, number>;
  /** Calls DynamoDB refused (a condition that did not hold): counted as calls, writing nothing. */
  refused: number;
  /** Items read by kind of call: a Query's scanned items, each key a GetItem or BatchGetItem asked. */
  read: Record<string, number>;
  itemsRead: number;
  itemsWritten: number;
}
const fresh = (): Tally => ({ calls: {}, refused: 0, read: {}, itemsRead: 0, itemsWritten: 0 });
let tally = fresh();

type Input = { RequestItems?: Record<string, { Keys?: unknown[] }>; TransactItems?: unknown[] };
const readBy = (command: string, items: number) => {
  tally.read[command] = (tally.read[command] ?? 0) + items;
  tally.itemsRead += items;
};
dynamodb.middlewareStack.add(
  (next, context) => async (args) => {
    const command = context.commandName ?? 'unknown';
    // Counted before it answers: a refused conditional write is a call made all the same.
    tally.calls[command] = (tally.calls[command] ?? 0) + 1;
    const result = await next(args).catch((error: unknown) => {
      tally.refused += 1;
      throw error;
    });
    const input = args.input as Input;
    const output = result.output as { ScannedCount?: number; Item?: unknown };
    if (command === 'QueryCommand') readBy(command, output.ScannedCount ?? 0);
    if (command === 'GetItemCommand') readBy(command, 1);
    if (command === 'BatchGetItemCommand')
      readBy(
        command,
        Object.values(input.RequestItems ?? {}).reduce((n, r) => n + (r.Keys?.length ?? 0), 0),
      );
    if (command === 'TransactWriteItemsCommand') tally.itemsWritten += input.TransactItems?.length ?? 0;
    if (command === 'UpdateItemCommand' || command === 'PutItemCommand') tally.itemsWritten += 1;
    return result;
  },
  { step: 'initialize', name: 'notificationsBench' },
);

const measured = async <T>(run: () => Promise<T>) => {
  tally = fresh();
  const result = await run();
  // A copy: what runs after this measure counts on a fresh tally, never on this one's.
  const { calls, read, refused, itemsRead, itemsWritten } = tally;
  return { result, calls: { ...calls }, read: { ...read }, refused, itemsRead, itemsWritten };
};

const envelope = (recipient: string, org: string, n: number): Envelope => ({
  recipient,
  org_id: org,
  event: { id: randomUUID(), name: 'invitation.accepted' },
  subject: { type: 'invitations', id: randomUUID() },
  actor: null,
  category: n % 2 === 0 ? 'people' : 'safety',
  severity: 'info',
  title: `Notice ${n}`,
  body: 'Something happened.',
  link: null,
  requires_ack: false,
  channels: { email: false },
});

const inbox = async (size: number) => {
  const owner = { userId: randomUUID(), organisations: new Set([uuidv7()]) };
  const [org] = [...owner.organisations];
  for (let i = 0; i < size; i += 500)
    await writeEnvelopes(
      Array.from({ length: Math.min(500, size - i) }, (_, j) => envelope(owner.userId, org ?? '', i + j)),
    );
  return owner;
};

const page = (limit: number) => ({
  filters: [],
  sort: { field: 'arrived', path: 'arrival', descending: true },
  page: { limit, offset: 0, after: 'start' as const },
  include: [],
});

/** Mails the SES emulator has received (its outbox), or null where the bench runs without it. */
const mailsSent = async () => {
  const endpoint = process.env.SES_ENDPOINT;
  if (!endpoint) return null;
  const response = await fetch(`${endpoint}/store`);
  return ((await response.json()) as { emails: unknown[] }).emails.length;
};

/**
 * An organisation of `size` active users and a safety notice to everyone of it, sent by a service account
 * (so no recipient is its actor): the `notice.created` event its write committed, as the stream hands it.
 */
const noticeToEveryone = async (size: number) => {
  const org = await createOrganisation({ name: 'Fan-out', slug: `fan-out-${uuidv7()}`, description: '' });
  for (let i = 0; i < size; i++)
    await createUser(org.id, {
      email: `worker${i}@fan-out.example`,
      first_name: 'Worker',
      last_name: `${i}`,
    });
  const notice = (await createNotice(
    {
      scope: scopeOf([org.id]),
      orgId: org.id,
      principal: {
        id: randomUUID(),
        kind: 'service-account',
        name: 'Gate system',
        permissions: new Map([[org.id, new Set(['notices:send'] as const)]]),
        teams: {},
      },
    },
    {
      data: {
        type: 'notices',
        attributes: {
          title: 'Stop work: crane fault',
          body: 'All lifting stops until the crane is inspected.',
          severity: 'critical',
          recipients: { everyone: true },
        },
      },
    },
  )) as StoredResource;
  return latestEvent(org.id, 'notice.created', notice.id);
};

/** The consumer's work for one event: calls by kind, items read and written, mails SES received. */
const delivered = async (event: Awaited<ReturnType<typeof noticeToEveryone>>) => {
  const before = await mailsSent();
  const run = await measured(() => deliverNotifications(event));
  const after = await mailsSent();
  return { ...run, mails: before === null || after === null ? null : after - before };
};

/** A window of 500 events for one active user, then its due work: calls, items read, and mails sent. */
const digestOf500 = async () => {
  const org = await createOrganisation({ name: 'Digest bench', slug: `digest-${uuidv7()}`, description: '' });
  const user = await createUser(org.id, {
    email: 'digest@bench.example',
    first_name: 'Dee',
    last_name: 'Gest',
  });
  const written = Date.now();
  await writeEnvelopes(
    Array.from({ length: 500 }, (_, n) => ({
      ...envelope(user.id, org.id, n),
      category: 'people' as const,
      channels: { email: true, digest: { cadence: 'hourly' as const } },
    })),
    () => written,
  );
  const outbox = async () => (await mailsSent()) ?? 0;
  const end = Math.floor(written / 3_600_000) * 3_600_000 + 3_600_000;
  const [entry] = await dueEntries(end, 10, { orgId: org.id });
  if (!entry) throw new Error('the digest window is not due');
  const before = await outbox();
  // The kind's work alone, as the runner hands it the entry; then a whole run again, which finds nothing.
  const run = await measured(() => sendDigest(entry, end));
  const mails = (await outbox()) - before;
  const again = await runDue(end + 60_000, { orgId: org.id });
  return { ...run, mails, rerunMails: (await outbox()) - before - mails, rerun: again.byKind };
};

export const benchNotifications = async () => {
  const big = await inbox(10_000);
  const first = await measured(() => readInboxPage(big, page(25)));
  const counts = await measured(() => readState(big.userId));
  const markBig = await measured(() => markThrough(big, 'read', 'now'));
  const small = await inbox(100);
  const markSmall = await measured(() => markThrough(small, 'read', 'now'));
  const org = uuidv7();
  const fanOut = await measured(() =>
    writeEnvelopes(Array.from({ length: 1_000 }, (_, i) => envelope(randomUUID(), org, i))),
  );
  const redelivered = envelope(randomUUID(), org, 0);
  await writeEnvelopes([redelivered]);
  const again = await measured(() => writeEnvelopes([redelivered]));
  const event = await noticeToEveryone(1_000);
  const consumer = await delivered(event);
  const redeliveredEvent = await delivered(event);
  const digest = await digestOf500();
  const calls = (c: Record<string, number>) =>
    Object.entries(c)
      .map(([k, v]) => `${v} ${k.replace('Command', '')}`)
      .join(', ');
  const consumerFigures = (run: typeof consumer) =>
    `calls: ${calls(run.calls)}${run.refused ? ` (${run.refused} refused: conditions that did not hold)` : ''}; ` +
    `items read: ${run.itemsRead} (${calls(run.read)}); items written: ${run.itemsWritten}; ` +
    `SES sends: ${run.mails ?? 'not counted'}`;
  return {
    page_25_of_10000_items_read: `${first.itemsRead - 1} envelopes for ${first.result.items.length} returned (${((first.itemsRead - 1) / first.result.items.length).toFixed(2)}×) + the state item (${calls(first.calls)})`,
    counts_at_10000_items_read: `${counts.itemsRead} (${calls(counts.calls)})`,
    mark_all_read_at_100: `${markSmall.itemsWritten} item written (${calls(markSmall.calls)})`,
    mark_all_read_at_10000: `${markBig.itemsWritten} item written (${calls(markBig.calls)})`,
    fan_out_1000_recipients: `${fanOut.result.written} envelopes, ${fanOut.itemsWritten} items written (${calls(fanOut.calls)})`,
    redelivery_of_one: `${again.result.written} written (${calls(again.calls)})`,
    consumer_notice_to_1000_users: consumerFigures(consumer),
    consumer_notice_redelivered: consumerFigures(redeliveredEvent),
    digest_of_500_events: `${digest.mails} e-mail by the due work; ${digest.itemsRead} items read, ${digest.itemsWritten} items written in transactions (${calls(digest.calls)}); a run after it: ${digest.rerunMails} e-mail, kinds run ${JSON.stringify(digest.rerun)}`,
  };
};
