/**
 * Every area's notification rules (`defineArea`'s `notificationRules`), as the composition root checked
 * them (`notification-rule-checks.ts`) and registered them with what each rule's subject offers; the
 * notifications function's entry registers the same catalogue as build-time data (`infra/area-bundle.ts`),
 * so it reads every area's rules without loading every declaration. Asked for where neither registered
 * them, it refuses, never lists fewer.
 */
import type { CataloguedRule, NotificationRule, RecipientSpec } from '../domain/notification-rules';

export type { CataloguedRule, NotificationRule, RecipientSpec };

let registered: readonly CataloguedRule[] | undefined;

export const registerNotificationRules = (rules: readonly CataloguedRule[]): void => {
  registered = rules;
};

/** Every area's rules, in area order. Asked for where nobody registered them, it refuses, never lists fewer. */
export const notificationRules = (): readonly CataloguedRule[] => {
  if (!registered)
    throw new Error(
      'the notification rules are asked for where they were not registered: load shared/routes.ts',
    );
  return registered;
};
