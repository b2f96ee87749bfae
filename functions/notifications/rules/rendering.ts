/**
 * What a rule makes of one event for one recipient (pure): whether the rule applies to the event (its
 * `when`), and the title and body filled from the subject as the event carries it, or the rule's generic
 * text where the recipient may not read the subject ("an envelope never shows the recipient more than
 * they may read").
 */
import type { NotificationRule } from '#shared/domain/notification-rules';
import { valueAt } from '#shared/domain/value-at';

/** Whether a rule's `when` holds for the subject as the event carries it (no `when`: always). */
export const ruleApplies = (rule: Pick<NotificationRule, 'when'>, data: unknown): boolean =>
  !rule.when || rule.when.in.some((value) => value === valueAt(data, rule.when?.path ?? ''));

/**
 * A template filled from the subject: each `{path}` its value as text. A value absent, or not a scalar,
 * leaves an empty string, never `undefined` or `[object Object]`.
 */
export const filled = (template: string, data: unknown): string =>
  template.replace(/\{([\w.]+)\}/g, (_, path: string) => {
    const value = valueAt(data, path);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';
  });

/** The text and link one recipient is shown: in full where they may read the subject, else generic. */
export const rendered = (
  rule: Pick<NotificationRule, 'title' | 'body' | 'generic'>,
  data: unknown,
  mayRead: boolean,
  link: string | null,
): { title: string; body: string; link: string | null } =>
  mayRead
    ? { title: filled(rule.title, data), body: filled(rule.body, data), link }
    : { title: rule.generic.title, body: rule.generic.body, link: null };
