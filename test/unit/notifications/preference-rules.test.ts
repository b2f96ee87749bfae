/**
 * Issue 43, preferences and rule overrides as values (functions/notifications/rules/preferences.ts,
 * rule-overrides.ts): defaults, a change applied, safety never muted, the channels one notification goes
 * on, and an organisation's overrides applied and checked.
 */
import { describe, expect, it } from 'vitest';
import {
  applied,
  channelsFor,
  defaultPreferences,
  preferencesOf,
  refusals,
} from '#functions/notifications/rules/preferences';
import { effectiveRules, overrideRefusals } from '#functions/notifications/rules/rule-overrides';
import type { CataloguedRule } from '#shared/domain/notification-rules';

describe('preferences', () => {
  it('an absent record is the defaults: every category in the inbox and by e-mail at once, digests at 08:00', () => {
    const defaults = preferencesOf(null);
    expect(defaults).toEqual(defaultPreferences());
    expect(defaults.channels.reviews).toEqual({ inbox: true, email: true });
    expect(defaults.email_digest.reviews).toBe('off');
    expect(defaults.daily_digest_at).toBe('08:00');
  });

  it('a change sets the members it names and keeps the rest', () => {
    const changed = applied(defaultPreferences(), {
      channels: { reviews: { email: false } },
      daily_digest_at: '07:30',
    });
    expect(changed.channels.reviews).toEqual({ inbox: true, email: false });
    expect(changed.channels.permits).toEqual({ inbox: true, email: true });
    expect(changed.daily_digest_at).toBe('07:30');
  });

  it('safety is never muted: switching a safety channel off or digesting safety e-mails is refused at its path', () => {
    expect(
      refusals({ channels: { safety: { inbox: false, email: false } }, email_digest: { safety: 'daily' } }),
    ).toEqual([
      { path: ['channels', 'safety', 'inbox'], reason: expect.any(String) },
      { path: ['channels', 'safety', 'email'], reason: expect.any(String) },
      { path: ['email_digest', 'safety'], reason: expect.any(String) },
    ]);
    expect(
      refusals({ channels: { safety: { inbox: true } }, email_digest: { safety: 'off', people: 'daily' } }),
    ).toEqual([]);
  });

  it('channelsFor: a muted channel is off, a digest delays e-mail; safety and acknowledgement-required ignore preferences', () => {
    const prefs = applied(defaultPreferences(), {
      // Safety muted as no PATCH may: the rule holds whatever a record says.
      channels: {
        people: { inbox: false, email: false },
        reviews: { email: true },
        safety: { inbox: false, email: false },
      },
      email_digest: { reviews: 'hourly', safety: 'daily' },
    });
    expect(channelsFor(prefs, 'people', false)).toEqual({ inbox: false, email: false });
    expect(channelsFor(prefs, 'reviews', false)).toEqual({ inbox: true, email: 'hourly' });
    expect(channelsFor(prefs, 'people', true)).toEqual({ inbox: true, email: 'now' });
    expect(channelsFor(prefs, 'safety', false)).toEqual({ inbox: true, email: 'now' });
  });
});

const rule: CataloguedRule = {
  id: 'invitation-accepted',
  area: 'people',
  event: 'invitation.accepted',
  category: 'people',
  severity: 'info',
  recipients: [{ relationship: 'invited_by' }],
  title: 't',
  body: 'b',
  generic: { title: 'g', body: 'g' },
  user_relationships: ['invited_by'],
};

describe('rule overrides', () => {
  it('a rule without an override is its shipped default, enabled; an override replaces what it names', () => {
    expect(effectiveRules([rule], {})[rule.id]).toMatchObject({
      severity: 'info',
      enabled: true,
      overridden: false,
      requires_ack: false,
    });
    expect(
      effectiveRules([rule], { [rule.id]: { enabled: false, severity: 'warning' } })[rule.id],
    ).toMatchObject({
      severity: 'warning',
      enabled: false,
      overridden: true,
      recipients: rule.recipients,
    });
  });

  it('an unknown rule id, a permission not in the catalogue, or a relationship the subject lacks is refused at its path', () => {
    const isPermission = (name: string) => name === 'invitations:view';
    expect(
      overrideRefusals(
        [rule],
        {
          nope: { enabled: false },
          [rule.id]: {
            recipients: [
              { permission: 'invitations:view' },
              { permission: 'made:up' },
              { relationship: 'person' },
            ],
          },
        },
        isPermission,
      ).map((refusal) => refusal.path),
    ).toEqual([
      ['overrides', 'nope'],
      ['overrides', rule.id, 'recipients', 1, 'permission'],
      ['overrides', rule.id, 'recipients', 2, 'relationship'],
    ]);
    expect(overrideRefusals([rule], { [rule.id]: null }, isPermission)).toEqual([]);
  });
});
