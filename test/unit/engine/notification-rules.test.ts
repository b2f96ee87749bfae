/**
 * Issue 43, "Rules … shipped as defaults per area in its manifest": every rule is checked as the service
 * loads, against the declarations: its event is a declared event, each relationship it names is one of the
 * subject's naming users, each permission is in the catalogue, its id is its own. A bad rule fails loudly.
 */
import { describe, expect, it } from 'vitest';
import { eventNames, typesNamed } from '#shared/data/events';
import type { NotificationRule } from '#shared/domain/notification-rules';
import { isPermission } from '#shared/domain/permissions';
import { assembleNotificationRules } from '#shared/engine/assembly';
import type { DeclaredFacts } from '#shared/engine/notification-rule-checks';
import { notificationRules } from '#shared/engine/notification-rules';
import { targetTypes } from '#shared/engine/relationship-targets';
import { resourceTypes } from '#shared/routes';

const facts: DeclaredFacts = {
  eventNames: new Set(eventNames()),
  typesNamed,
  relationshipsOf: (type) =>
    new Map(
      Object.entries(resourceTypes.get(type)?.relationships ?? {}).map(([name, r]) => [name, targetTypes(r)]),
    ),
  isPermission,
};

const rule = (change: Partial<NotificationRule>): NotificationRule => ({
  id: 'test-rule',
  event: 'invitation.accepted',
  category: 'people',
  severity: 'info',
  recipients: [{ relationship: 'invited_by' }],
  title: 'Accepted',
  body: 'Accepted.',
  generic: { title: 'Accepted', body: 'Accepted.' },
  ...change,
});
const assembled = (...rules: NotificationRule[]) =>
  assembleNotificationRules([{ name: 'test', notificationRules: rules }], facts);

describe('notification rules are checked as the service loads', () => {
  it("the shipped defaults load, each with its subject's relationships naming users", () => {
    const ids = notificationRules().map((r) => r.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'invitation-accepted',
        'qualification-award-expiring',
        'qualification-award-expired',
        'site-attendance-let-in-with-warnings',
      ]),
    );
    const accepted = notificationRules().find((r) => r.id === 'invitation-accepted');
    expect(accepted?.area).toBe('people');
    expect(accepted?.user_relationships).toContain('invited_by');
    expect(accepted?.user_relationships).not.toContain('teams');
  });

  it('a well-formed rule loads', () => {
    expect(assembled(rule({}))).toHaveLength(1);
  });

  it.each([
    [
      'an event no declaration declares',
      rule({ event: 'invitation.exploded' }),
      /invitation\.exploded is no declared event/,
    ],
    [
      'a relationship the subject lacks',
      rule({ recipients: [{ relationship: 'friend' }] }),
      /friend is no relationship naming users/,
    ],
    [
      'a relationship not naming users',
      rule({ recipients: [{ relationship: 'teams' }] }),
      /teams is no relationship naming users/,
    ],
    [
      'a permission no area declares',
      rule({ recipients: [{ permission: 'invitations:bless' }] }),
      /invitations:bless is no declared permission/,
    ],
    [
      'named recipients the subject has none of',
      rule({ recipients: [{ named: 'recipients' }] }),
      /names no recipients/,
    ],
    ['nobody to notify', rule({ recipients: [] }), /notifies nobody/],
  ])('a rule naming %s stops the service loading', (_, bad, problem) => {
    expect(() => assembled(bad)).toThrow(problem);
  });

  it('two rules with one id stop the service loading', () => {
    expect(() => assembled(rule({}), rule({}))).toThrow(/test-rule: declared twice/);
  });
});
