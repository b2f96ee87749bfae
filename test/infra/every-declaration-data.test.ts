/**
 * The audit, events, webhooks and feature configurations functions read what every declaration declares
 * (every event's name and types, each type's relationship shape and read permission, every feature) from
 * data their entry carries (`infra/area-bundle.ts`), not from the composition root. Each part, read out
 * of the entry's source exactly as it ships and registered in modules fresh from the composition root,
 * answers as the composition root does for every type, every event and every feature.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as root from '#shared/data/events';
import { readPermissionsOf } from '#shared/http/read-permissions';
import { featureCatalogue, notificationRules, resourceTypes, routes } from '#shared/routes';
import { areas, entrySource } from '../../infra/area-bundle';

/** Each `register(JSON.parse("…"))` line of an area's entry: the data it carries, by the function registering it. */
const carriedBy = (area: string): Map<string, unknown> =>
  new Map(
    [...entrySource(area, areas().get(area) ?? []).matchAll(/^(\w+)\(JSON\.parse\((".*")\)\);$/gm)].map(
      ([, register, literal]) => [register ?? '', JSON.parse(JSON.parse(literal ?? '""'))],
    ),
  );

/** A record of `type` presented with no relationships stored, as an event or audit entry keeps one. */
const storedWithout = (type: string) => ({ type, id: 'x', attributes: {}, relationships: {} });

describe('what an entry carries of every declaration is what the composition root declares', () => {
  // Fresh copies of the modules the entry registers with, which no declaration has reached.
  let fresh: {
    events: typeof import('#shared/data/events');
    permissions: typeof import('#shared/http/read-permissions');
    features: typeof import('#shared/engine/feature-catalogue');
    rules: typeof import('#shared/engine/notification-rules');
  };
  beforeAll(async () => {
    vi.resetModules();
    fresh = {
      events: await import('#shared/data/events'),
      permissions: await import('#shared/http/read-permissions'),
      features: await import('#shared/engine/feature-catalogue'),
      rules: await import('#shared/engine/notification-rules'),
    };
  });

  it('before an entry registers them, every event, read permission, feature and notification rule is refused, not listed short', () => {
    expect(() => fresh.events.eventNames()).toThrow(/not every declaration is loaded/);
    expect(() => fresh.events.readPresentation(storedWithout('vehicles'))).toThrow(/not loaded/);
    expect(() => fresh.permissions.viewPermissions()).toThrow(/not registered/);
    expect(() => fresh.features.featureCatalogue()).toThrow(/not registered/);
    expect(() => fresh.rules.notificationRules()).toThrow(/not registered/);
  });

  it("notifications: every area's notification rules, as the composition root checked them (issue 43)", () => {
    fresh.rules.registerNotificationRules(
      carriedBy('notifications').get('registerNotificationRules') as never,
    );
    expect(fresh.rules.notificationRules()).toEqual(notificationRules);
  });

  it.each(['events', 'webhooks', 'audit'])(
    "%s: every event's name, the types named by it, and every type's relationships",
    (area) => {
      fresh.events.describeEveryEventSource(carriedBy(area).get('describeEveryEventSource') as never);
      expect(fresh.events.eventNames().sort()).toEqual(root.eventNames().sort());
      for (const name of new Set(root.eventNames().map((event) => event.slice(0, event.lastIndexOf('.')))))
        expect(fresh.events.typesNamed(name), name).toEqual(root.typesNamed(name));
      for (const type of resourceTypes.keys())
        expect(fresh.events.readPresentation(storedWithout(type)), type).toEqual(
          root.readPresentation(storedWithout(type)),
        );
    },
  );

  it.each(['events', 'webhooks'])("%s: every type's read permission", (area) => {
    fresh.permissions.registerReadPermissions(carriedBy(area).get('registerReadPermissions') as never);
    const whole = readPermissionsOf(routes);
    expect([...fresh.permissions.viewPermissions().keys()].sort()).toEqual([...whole.keys()].sort());
    for (const type of resourceTypes.keys())
      expect(fresh.permissions.viewPermissions().get(type), type).toBe(whole.get(type));
  });

  it('feature-configurations: every feature and what it says', () => {
    fresh.features.registerFeatureCatalogue(
      carriedBy('feature-configurations').get('registerFeatureCatalogue') as never,
    );
    expect([...fresh.features.featureCatalogue()]).toEqual([...featureCatalogue]);
  });

  it('an area reading none of it carries none', () => {
    expect([...carriedBy('assets').keys()]).toEqual([]);
  });
});
