/**
 * The notifications consumer (stage `deliver`): each event becomes envelopes in the inboxes its rules
 * name. For an event of a name some rule answers: the organisation's rules (every area's defaults with its
 * overrides: one GetItem of its settings, read per event, so a change applies to the next event), those
 * that apply (enabled, their `when` holding), their recipients (`recipientsOf`; a notice's own addressees
 * by `noticeRecipients` besides), who may read the subject's type (the organisation's grants, read once
 * an event, as `recipientsOf` reads them), each recipient's preferences (BatchGetItem), the rendered
 * envelopes, then `writeEnvelopes`, then the e-mails wanted at once (`email-delivery.ts`).
 *
 * Bounded: recipients go in pages of 100 (one BatchGetItem of preferences, one `writeEnvelopes`), so a
 * notice to 50,000 people runs 500 pages one after another, never 50,000 transactions at once. Redelivery-safe: an envelope's id is UUIDv5(event, recipient) and put only if
 * absent, so a batch handed over again writes nothing twice and still writes what it missed.
 */
import type { StoredEvent } from '#shared/data/events';
import { batchGet } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import type { CataloguedRule } from '#shared/domain/notification-rules';
import { notificationRules } from '#shared/engine/notification-rules';
import { viewPermissions } from '#shared/http/read-permissions';
import { resourceTypes } from '#shared/routes';
import { DEFAULT_ESCALATE_AFTER_SECONDS } from './acknowledgement-records';
import { digestPlan, digestZone, organisationZone } from './digest-plans';
import { mailNow } from './email-delivery';
import { type Envelope, writeEnvelopes } from './envelopes';
import { noticeRecipients, RECIPIENT_PAGE } from './notice-recipients';
import { preferencesKey } from './preferences';
import type { Recipient } from './recipient';
import { holdersOf, recipientsOf } from './recipients';
import { readRuleSettings } from './rule-settings-reads';
import { durationSeconds } from './rules/notice';
import { type Channels, channelsFor, type PreferencesChange, preferencesOf } from './rules/preferences';
import { rendered, ruleApplies } from './rules/rendering';
import { effectiveRules, type RuleOverride } from './rules/rule-overrides';

interface Presented {
  id?: string;
  attributes?: Record<string, unknown>;
}

/** The organisation's rules for one event name, as they apply there, with their templates. */
const rulesFor = async (orgId: string, eventName: string) => {
  const shipped = notificationRules().filter((rule) => rule.event === eventName);
  if (shipped.length === 0) return [];
  const { record } = await readRuleSettings(orgId);
  const overrides = (record.attributes.overrides ?? {}) as Record<string, RuleOverride>;
  const effective = effectiveRules(shipped, overrides);
  return shipped.flatMap((rule) => {
    const applied = effective[rule.id];
    return applied?.enabled ? [{ ...rule, ...applied }] : [];
  });
};
type AppliedRule = Awaited<ReturnType<typeof rulesFor>>[number];

/** Pages of at most 100 recipients. */
function* pages(recipients: readonly Recipient[]): Generator<Recipient[]> {
  for (let i = 0; i < recipients.length; i += RECIPIENT_PAGE) yield recipients.slice(i, i + RECIPIENT_PAGE);
}

interface RecipientPage {
  recipients: Recipient[];
  addressed: boolean;
}

/** Whom a rule tells of the event, page by page: its recipient specs, and a notice's addressees. */
async function* recipientPages(rule: AppliedRule, event: StoredEvent): AsyncGenerator<RecipientPage> {
  const named = await recipientsOf(rule, event);
  if (rule.addressed) {
    const addressed = new Set<string>();
    const notice = { ...(event.data as Presented), org_id: event.org_id } as unknown as StoredResource;
    for await (const page of noticeRecipients(notice)) {
      for (const { id } of page) addressed.add(id);
      yield { recipients: page, addressed: true };
    }
    yield* [...pages(named.filter(({ id }) => !addressed.has(id)))].map((recipients) => ({
      recipients,
      addressed: false,
    }));
    return;
  }
  yield* [...pages(named)].map((recipients) => ({ recipients, addressed: false }));
}

/**
 * Whether a user may read the subject's type in the event's organisation: the holders of its read
 * permission, from the organisation's grants (one read an event, not one a recipient).
 */
const readersOf = async (event: StoredEvent): Promise<(user: string) => boolean> => {
  const permission = viewPermissions().get(event.subject.type);
  // A type no read route names is read by nobody here: the generic text, never more.
  if (!permission) return () => false;
  if (permission === 'authenticated') return () => true;
  const holders = new Set(await holdersOf(event.org_id, [permission]));
  return (user) => holders.has(user);
};

/** The subject's API path, from its declaration, or null for a type with no path of its own. */
const linkOf = (event: StoredEvent): string | null => {
  const path = resourceTypes.get(event.subject.type)?.selfPath;
  const data = event.data as Presented;
  return path
    ? path({
        org_id: event.org_id,
        id: event.subject.id,
        type: event.subject.type,
        attributes: data.attributes ?? {},
        rels: {},
      } as unknown as StoredResource)
    : null;
};

/** What an addressing subject (a notice) says of itself: its category, severity and acknowledgement, over the rule's. */
const noticeTerms = (event: StoredEvent, rule: AppliedRule) => {
  if (!rule.addressed) return rule;
  const attributes = (event.data as Presented).attributes ?? {};
  return {
    ...rule,
    category: (attributes.category ?? rule.category) as AppliedRule['category'],
    severity: (attributes.severity ?? rule.severity) as AppliedRule['severity'],
    requires_ack: Boolean(attributes.requires_ack ?? rule.requires_ack),
  };
};

/**
 * A notice's escalation, which its acknowledgement records carry: after its `escalate_after` (else the
 * default), to its `sender_team`. None for what asks no acknowledgement, or for a rule's own envelopes.
 */
const escalationOf = (
  event: StoredEvent,
  rule: AppliedRule,
  requiresAck: boolean,
): Envelope['escalation'] => {
  if (!rule.addressed || !requiresAck) return undefined;
  const { attributes = {}, relationships = {} } = event.data as Presented & {
    relationships?: Record<string, { data?: { id?: string } | null }>;
  };
  const after =
    typeof attributes.escalate_after === 'string' ? durationSeconds(attributes.escalate_after) : null;
  return {
    after_seconds: after ?? DEFAULT_ESCALATE_AFTER_SECONDS,
    sender_team: relationships.sender_team?.data?.id ?? null,
  };
};

/** Envelopes for one page of a rule's recipients: their preferences and read permission decide. */
const envelopesOf = async (
  rule: AppliedRule,
  event: StoredEvent,
  page: RecipientPage,
  mayRead: (user: string) => boolean,
  zoneOf: () => Promise<string>,
): Promise<{ envelope: Envelope; email: Channels['email'] }[]> => {
  const terms = noticeTerms(event, rule);
  const escalation = escalationOf(event, rule, terms.requires_ack);
  const stored = await batchGet<PreferencesChange & { user_id: string }>(
    page.recipients.map(({ id }) => preferencesKey(id, event.org_id)),
  );
  const preferences = new Map(stored.map((item) => [item.user_id, item]));
  const zone = await digestZone(zoneOf, stored);
  const link = linkOf(event);
  return page.recipients.flatMap(({ id: recipient }) => {
    const own = preferencesOf(preferences.get(recipient) ?? null);
    const channels = channelsFor(own, terms.category as CataloguedRule['category'], terms.requires_ack);
    const digest = digestPlan(channels.email, own, zone);
    // Both channels off: nothing is kept. Inbox off, e-mail on: the envelope is written out of the inbox,
    // as its mail's claim and record (`Envelope.channels.inbox`).
    if (!channels.inbox && channels.email === false) return [];
    // A notice's addressees are told what it says (it was written to them); its link only if they may read it.
    const text = rendered(rule, event.data, page.addressed || mayRead(recipient), null);
    const envelope: Envelope = {
      recipient,
      org_id: event.org_id,
      event: { id: event.id, name: event.event },
      subject: event.subject,
      actor:
        event.actor.kind === 'system'
          ? null
          : { type: event.actor.kind === 'user' ? 'users' : 'service-accounts', id: event.actor.id },
      category: terms.category as Envelope['category'],
      severity: terms.severity,
      title: text.title,
      body: text.body,
      link: mayRead(recipient) ? link : null,
      requires_ack: terms.requires_ack,
      channels: { inbox: channels.inbox, email: channels.email !== false, ...(digest && { digest }) },
      ...(escalation && { escalation }),
    };
    return [{ envelope, email: channels.email }];
  });
};

/** The consumer: see the module's comment. */
export const deliverNotifications = async (event: StoredEvent): Promise<void> => {
  let readers: Promise<(user: string) => boolean> | undefined;
  const zoneOf = organisationZone(event.org_id);
  for (const rule of await rulesFor(event.org_id, event.event)) {
    if (!ruleApplies(rule, event.data)) continue;
    readers ??= readersOf(event);
    const mayRead = await readers;
    for await (const page of recipientPages(rule, event)) {
      const made = await envelopesOf(rule, event, page, mayRead, zoneOf);
      if (made.length === 0) continue;
      const { unmailed } = await writeEnvelopes(made.map(({ envelope }) => envelope));
      // What this write wrote, or found still pending and unclaimed (a crash between a write and its mail:
      // the redelivery finishes it); what was mailed, or claimed, is not tried again.
      const now = new Set(made.flatMap(({ envelope, email }) => (email === 'now' ? [envelope] : [])));
      await mailNow(
        unmailed.filter((envelope) => now.has(envelope)),
        new Map(page.recipients.map(({ id, email }) => [id, email])),
      );
    }
  }
};
