/**
 * Keys are declared once, as named access patterns, and the key table is written from them. Proven here:
 * the declared keys are byte for byte the keys written before the declarations (no migration exists),
 * no two patterns can meet, and shared/data/README.md's table is the one the declarations write.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { collide, collisions } from '#shared/data/access-pattern-collisions';
import type { DeclaredPattern } from '#shared/data/access-patterns';
import { declaredType } from '#shared/engine/resource-definition';
import { keyTable, loadPatterns, README, withKeyTable } from '../../../infra/key-table/table';

let patterns: DeclaredPattern[];
beforeAll(async () => {
  patterns = await loadPatterns();
}, 120_000);

const ORG = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const ID = '0190a1b2-c3d4-7e5f-8a9b-ffffffffffff';

describe('stored keys do not change', () => {
  it('every type keys its records as it did before its patterns were declared', async () => {
    const { settingsKey } = await import('#shared/data/organisation-settings');
    const { ruleSettingsIdOf } = await import('#functions/notifications/rule-settings');
    const types = [
      ...new Set(
        patterns
          // Types keyed by the organisation alone: a notification is its recipient's (`INBOX#<user_id>`),
          // an acknowledgement its event's (`…#{event_id}`).
          .filter((p) => p.name === 'record' && declaredType(p.owner) && p.pk === `ORG#{org_id}#${p.owner}`)
          .map((p) => p.owner),
      ),
    ];
    expect(types.length).toBeGreaterThan(60);
    for (const type of types) {
      const before =
        type === 'organisations'
          ? { pk: `ORG#${ID}#organisations`, sk: ID }
          : type === 'settings'
            ? settingsKey(ORG)
            : // One per organisation, found by the organisation alone, as settings are (since issue 43).
              type === 'notification-rules'
              ? { pk: `ORG#${ORG}#${type}`, sk: ruleSettingsIdOf(ORG) }
              : { pk: `ORG#${ORG}#${type}`, sk: ID };
      expect(declaredType(type)?.keyOf(ORG, ID), type).toEqual(before);
    }
  });

  it('unique claims, sort indexes and fixed keys are the keys written before', async () => {
    const claimOf = async (type: string) =>
      declaredType(type)?.keys[(await declaredType(type)?.writes?.())?.unique?.claim ?? ''];
    const claims = Object.fromEntries(
      await Promise.all(
        ['job-roles', 'rate-codes', 'locations', 'qualification-types', 'qualification-specifications'].map(
          async (t) => [t, (await claimOf(t))?.pk],
        ),
      ),
    );
    expect(claims).toEqual({
      'job-roles': 'ORG#{org_id}#job-role-codes',
      'rate-codes': 'ORG#{org_id}#rate-code-codes',
      locations: 'ORG#{org_id}#location-references',
      'qualification-types': 'ORG#{org_id}#qualification-codes',
      'qualification-specifications': 'ORG#{org_id}#qualification-specification-codes',
    });
    const { sessionKey } = await import('#shared/data/sessions');
    const { principalKey, heldGrantKey, clientKey, granteeIndexKey } = await import(
      '#shared/data/principals'
    );
    const { counterKey, resourceKey } = await import('#shared/data/stored-resource');
    const { jobStateKey } = await import('#shared/data/job-keys');
    const { dueKeys, dueEntry } = await import('#shared/data/due-work');
    const { geoIndexKeys } = await import('#shared/data/geo-index');
    const { treeKeys, deletedKey } = await import('#shared/data/trees');
    const { childPartition } = await import('#shared/data/children');
    const { eventPartition, subjectEvents } = await import('#shared/data/events');
    const { siteInductionKey } = await import('#functions/qualifications/definitions');
    const { openAttendanceKey } = await import('#functions/site-attendances/attendance-moves');
    const { onSitePartition } = await import('#functions/site-attendances/definitions');
    const { progressKey } = await import('#functions/projects/progress-keys');
    const { referenceClaim } = await import('#functions/places/definitions');
    expect([
      sessionKey('h'),
      principalKey('p'),
      heldGrantKey('p', 'g'),
      clientKey('c'),
      granteeIndexKey('u'),
      counterKey('o', 'teams'),
      resourceKey('o', 'teams', 'i'),
      jobStateKey('j'),
      dueKeys('k', 'abc7', 0),
      dueEntry('k', 'o', 'abc5', 0),
      geoIndexKeys('locations', 'o', 'i', 0, 0),
      treeKeys('o', 'r', 'r#n'),
      deletedKey('o', 'schemes', 'i'),
      childPartition('folders', 'f', 'documents'),
      eventPartition('o'),
      subjectEvents('s'),
      siteInductionKey('o', 's', 't'),
      openAttendanceKey('o', 's', 'p'),
      onSitePartition('o', 's'),
      progressKey('o', 'i'),
      referenceClaim('o', 'R1'),
    ]).toEqual([
      { pk: 'SESSION#h', sk: 'SESSION' },
      { pk: 'PRINCIPAL#p', sk: 'PRINCIPAL' },
      { pk: 'PRINCIPAL#p', sk: 'GRANT#g' },
      { pk: 'CLIENT#c', sk: 'CLIENT' },
      'GRANTEE#u',
      { pk: 'ORG#o#counters', sk: 'teams' },
      { pk: 'ORG#o#teams', sk: 'i' },
      { pk: 'JOB#j', sk: 'STATE' },
      { gsi1pk: 'DUE#3', gsi1sk: '1970-01-01T00:00:00.000Z#k#abc7' },
      {
        pk: 'ORG#o#due-work',
        sk: '1970-01-01T00:00:00.000Z#k#abc5',
        gsi1pk: 'DUE#1',
        gsi1sk: '1970-01-01T00:00:00.000Z#k#abc5',
        kind: 'k',
        org_id: 'o',
        id: 'abc5',
        due: '1970-01-01T00:00:00.000Z',
      },
      { gsi1pk: 'GEO#locations#o', gsi1sk: 's00000000#i' },
      { tree_root: 'r', tree_path: 'r#n', gsi1pk: 'TREE#o#r', gsi1sk: 'r#n' },
      { pk: 'ORG#o#schemes#deleted', sk: 'i' },
      'folders#f#documents',
      'EVENTS#o',
      'EVENTS#s',
      { pk: 'ORG#o#site-inductions', sk: 's#t' },
      { pk: 'ORG#o#open-attendances', sk: 's#p' },
      'ON-SITE#o#s',
      { pk: 'ORG#o#progress', sk: 'i' },
      { pk: 'ORG#o#location-references', sk: 'R1' },
    ]);
  });

  it('the former due shapes, carried over until removed, are declared as the code before the due index wrote them', async () => {
    const { fill } = await import('#shared/data/access-patterns');
    const { formerDeliveryDueKeys, formerJobDueKeys, formerScheduleEntry } = await import(
      '../../support/former-due-shapes'
    );
    const former = Object.fromEntries(
      patterns.filter((p) => p.owner === 'data/former-due-entries').map((p) => [p.name, p]),
    );
    const filled = (name: string, parts: Record<string, string>, [pk, sk]: [string, string]) => {
      const pattern = former[name];
      if (!pattern) throw new Error(`no former pattern ${name}`);
      return { [pk]: fill(pattern.pk, parts), [sk]: fill(pattern.sk, parts) };
    };
    const due = '1970-01-01T00:00:00.000Z';
    expect(filled('job-due', { shard: '3', due, job_id: 'abc7' }, ['gsi1pk', 'gsi1sk'])).toEqual(
      formerJobDueKeys('abc7', 0),
    );
    expect(filled('webhook-due', { shard: '3', due, id: 'abc7' }, ['gsi1pk', 'gsi1sk'])).toEqual(
      formerDeliveryDueKeys('abc7', 0),
    );
    const { pk, sk } = formerScheduleEntry('k', 'o', 'abc5', 0);
    expect(filled('schedule-entry', { shard: '1', due, kind: 'k', id: 'abc5' }, ['pk', 'sk'])).toEqual({
      pk,
      sk,
    });
    expect({ pk, sk }).toEqual({ pk: 'SCHEDULE#1', sk: `${due}#k#abc5` });
  });
});

describe('no two access patterns can meet', () => {
  it('the declared patterns: none collides with another', () => {
    expect(collisions(patterns).map(([a, b]) => `${a.owner} ${a.name} / ${b.owner} ${b.name}`)).toEqual([]);
  });

  it("refuses a partition one prefix of whose keys is another's (a claim partition named as a type)", () => {
    const teams = { index: 'table', pk: 'ORG#{org_id}#teams', sk: '{id}' } as const;
    expect(collide(teams, { index: 'table', pk: 'ORG#{org_id}#teams', sk: '{name}' })).toBe(true);
    expect(collide(teams, { index: 'table', pk: 'ORG#{org_id}#{name}', sk: 'X' })).toBe(true);
    expect(collide(teams, { index: 'lsi1', pk: 'ORG#{org_id}#teams', sk: '{name}' })).toBe(false);
    expect(collide(teams, { index: 'table', pk: 'ORG#{org_id}#team-names', sk: '{name}' })).toBe(false);
  });

  it('refuses a sort-key head that begins another in one partition; distinct heads share it', () => {
    const principal = { index: 'table', pk: 'PRINCIPAL#{id}', sk: 'PRINCIPAL' } as const;
    expect(collide(principal, { index: 'table', pk: 'PRINCIPAL#{id}', sk: 'GRANT#{grant_id}' })).toBe(false);
    expect(collide(principal, { index: 'table', pk: 'PRINCIPAL#{id}', sk: 'PRINCIPAL#{key_id}' })).toBe(true);
  });

  it('a type-named part is never an upper-case fixed word: children stay apart from GEO, EVENTS, …', () => {
    const child = { index: 'gsi1', pk: '{parent_type}#{parent_id}#{child_type}', sk: '{id}' } as const;
    expect(collide(child, { index: 'gsi1', pk: 'GEO#{type}#{org_id}', sk: '{geohash}#{id}' })).toBe(false);
    expect(collide(child, { index: 'gsi1', pk: 'folders#{id}#documents', sk: '{id}' })).toBe(true);
  });
});

describe('the key table', () => {
  it("shared/data/README.md's table is the one the declarations write (npm run keys)", () => {
    const readme = readFileSync(README, 'utf8');
    expect(withKeyTable(readme, keyTable(patterns))).toBe(readme);
  });
});
