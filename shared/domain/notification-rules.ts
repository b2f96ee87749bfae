/**
 * Notification rules as data (pure): what notifications are about and how severe they are, whom a rule
 * notifies, and a rule's shape. Areas ship rules in their manifests (`engine/notification-rules.ts` checks
 * them as the service loads); users keep their preferences per category; an organisation's overrides
 * are checked against the catalogued rules. One list for the engine and the notifications area.
 */
export const NOTIFICATION_CATEGORIES = [
  'actions',
  'permits',
  'reviews',
  'submissions',
  'reports',
  'sharing',
  'people',
  'system',
  'safety',
] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/**
 * Whom a rule notifies: the users a relationship of the subject names (the invitation's `invited_by`),
 * every user holding a permission in the event's organisation, or the users and teams the subject itself
 * names in its `recipients` (a notice's).
 */
export type RecipientSpec = { relationship: string } | { permission: string } | { named: 'recipients' };

export interface NotificationRule {
  /** Stable: an organisation's overrides name it. */
  id: string;
  /** The event it answers, `<name>.<action>`: one a declaration declares. */
  event: string;
  category: NotificationCategory;
  severity: NotificationSeverity;
  recipients: readonly RecipientSpec[];
  requires_ack?: boolean;
  /** Whether the actor is told of their own act (default: no). */
  tell_actor?: boolean;
  /**
   * The subject addresses its own recipients (a notice's `recipients`: users, teams, everyone), resolved
   * by the consumer as the notice reaches them; `recipients` then adds to them and may be empty.
   */
  addressed?: boolean;
  /** Only events whose subject, as the event carries it, holds one of these values at this path. */
  when?: { path: string; in: readonly (string | number | boolean)[] };
  /**
   * Plain text filled from the subject as presented (`{attributes.name}`); `generic` is what a recipient
   * who may not read the subject is told instead: no attribute values.
   */
  title: string;
  body: string;
  generic: { title: string; body: string };
}

/** A rule as the catalogue keeps it: with the relationships of its subject that name users. */
export interface CataloguedRule extends NotificationRule {
  /** The area that ships it. */
  area: string;
  /** The subject's relationships a recipient spec may name: those pointing at users. */
  user_relationships: readonly string[];
}
