import { describe, expect, it } from 'vitest';
import { briefings } from '#functions/agents/definitions';
import { equipmentItems, vehicles } from '#functions/assets/definitions';
import { auditEvents } from '#functions/audit/audit-events';
import { siteHazards } from '#functions/cdm/definitions';
import { fileUnder, refiled } from '#shared/data/children';
import type { StoredEvent } from '#shared/data/events';
import { countedIn, counterKey, countMoves } from '#shared/data/stored-resource';
import { buildTransaction as build, type WriteOp } from '#shared/data/transaction';
import { changedRecord } from '#shared/engine/record-writes';
import { toStoredResource } from '#shared/engine/stored';

const key = { pk: 'ORG#o#progress', sk: 's1' };
const at = Date.parse('2026-11-23T09:00:00Z');
const actor = { kind: 'user', id: 'u1' } as const;
const buildTransaction = (ops: WriteOp[]) => build(ops, { actor, at });

describe('buildTransaction: counters and checks (DynamoDB allows one action per item)', () => {
  it('a count with `expect` conditions the counter’s one update on its count (none yet is 0), owned by that op; with nothing to add, it is a ConditionCheck', () => {
    const other = { pk: 'ORG#o#counters', sk: 'folders#f#documents' };
    const { items, owners } = buildTransaction([
      { count: { key, by: -2 } },
      { count: { key, by: 0, expect: 2 } },
      { count: { key: other, by: 0, expect: 0 } },
    ]);
    expect(items).toHaveLength(2);
    expect(owners).toEqual([1, 2]);
    expect(items[0]?.Update).toMatchObject({
      Key: key,
      ConditionExpression: '#expected = :expected',
      ExpressionAttributeValues: { ':expected': 2 },
    });
    expect(items[0]?.Update?.ExpressionAttributeNames?.['#expected']).toBe('count');
    expect(items[1]?.ConditionCheck).toMatchObject({
      Key: other,
      ConditionExpression: 'attribute_not_exists(#expected) OR #expected = :expected',
      ExpressionAttributeValues: { ':expected': 0 },
    });
  });

  it('merges every tally and count on one item into one update of ADD and DELETE clauses', () => {
    const { items, owners } = buildTransaction([
      { tally: { key, add: { todo: 1, version: 1 }, join: { work_order_ids: 'w1' } } },
      { tally: { key, add: { todo: 1, done: -1 }, leave: { old_ids: 'w0' } } },
      { count: { key, by: 2 } },
    ]);
    expect(items).toHaveLength(1);
    expect(owners).toEqual([0]);
    const update = items[0]?.Update;
    expect(update?.Key).toEqual(key);
    const names = update?.ExpressionAttributeNames ?? {};
    const values = update?.ExpressionAttributeValues ?? {};
    const byName = Object.fromEntries(
      Object.entries(names).map(([alias, name]) => [name, values[`:${alias.slice(1)}`]]),
    );
    expect(byName).toEqual({
      todo: 2,
      version: 1,
      done: -1,
      count: 2,
      work_order_ids: new Set(['w1']),
      old_ids: new Set(['w0']),
    });
    expect(update?.UpdateExpression).toMatch(/^ADD (#a\d :a\d, ){4}#a\d :a\d DELETE #a\d :a\d$/);
  });

  it('moves that cancel out write nothing', () => {
    const { items } = buildTransaction([
      { tally: { key, add: { todo: 1 } } },
      { tally: { key, add: { todo: -1 } } },
    ]);
    expect(items).toEqual([]);
  });

  it('the same existence check asked twice is one ConditionCheck; a version check is its own', () => {
    const parent = { pk: 'ORG#o#work-orders', sk: 'w1' };
    const { items } = buildTransaction([
      { check: parent },
      { check: parent },
      { check: { ...key, version: 3 } },
    ]);
    expect(items.map((i) => i.ConditionCheck?.ConditionExpression)).toEqual([
      'attribute_exists(pk)',
      '#version = :version',
    ]);
    expect(items[1]?.ConditionCheck?.ExpressionAttributeValues).toEqual({ ':version': 3 });
  });

  it('an existence check of a record a keep updates is the keep’s own condition; a version check is not', () => {
    const specification = { pk: 'ORG#o#qualification-specifications', sk: 's1' };
    const { items, owners } = buildTransaction([
      { check: specification },
      { keep: { key: specification, add: { 'count#job-roles': 1 } } },
      { check: { ...key, version: 3 } },
    ]);
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['Update', 'ConditionCheck']);
    expect(items[0]?.Update?.ConditionExpression).toBe('attribute_exists(pk)');
    expect(owners).toEqual([1, 2]);
  });

  it('an existence check of a record a link lists on is the link’s own condition (a contact an interaction is listed on)', () => {
    const contact = { pk: 'ORG#o#customer-contacts', sk: 'c1' };
    const { items, owners } = buildTransaction([
      { check: contact },
      { link: { key: contact, relationship: 'interactions', id: 'i1' } },
    ]);
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['Update']);
    expect(items[0]?.Update?.ConditionExpression).toBe('attribute_exists(pk)');
    expect(owners).toEqual([1]);
  });
});

describe('buildTransaction: a child filed under its parent is counted there by the ops that write it', () => {
  const briefing = (id: string) =>
    fileUnder(
      toStoredResource(briefings, { orgId: 'o', id, attributes: {}, meta: {}, rels: {} }),
      'agents#a1#briefings',
    );
  const counts = (ops: WriteOp[]) =>
    Object.fromEntries(
      buildTransaction(ops).items.flatMap((i) =>
        i.Update?.Key?.pk === 'ORG#o#counters'
          ? [[String(i.Update.Key.sk), Object.values(i.Update.ExpressionAttributeValues ?? {})[0]]]
          : [],
      ),
    );

  it('a create adds one to the type’s counter and the parent’s; a delete takes one from both', () => {
    const one = briefing('019a0000-0000-7000-8000-000000000001');
    const two = briefing('019a0000-0000-7000-8000-000000000002');
    expect(counts([{ create: one }, { create: two }])).toEqual({ briefings: 2, 'agents#a1#briefings': 2 });
    expect(counts([{ delete: one }])).toEqual({ briefings: -1, 'agents#a1#briefings': -1 });
  });

  it('a record not filed with fileUnder counts only in its type; a move refiles its count', () => {
    const one = briefing('019a0000-0000-7000-8000-000000000001');
    const { gsi1_counted: _, ...unmarked } = one;
    expect(counts([{ create: unmarked }])).toEqual({ briefings: 1 });
    const moved = fileUnder(one, 'agents#a2#briefings');
    expect(counts([{ replace: moved, was: one }, ...refiled(one, moved)])).toEqual({
      'agents#a1#briefings': -1,
      'agents#a2#briefings': 1,
    });
    expect(refiled(one, { ...one })).toEqual([]);
  });
});

describe('buildTransaction: events (issue 18: every write that changes a record commits its event with it)', () => {
  const vehicle = toStoredResource(vehicles, {
    orgId: 'o',
    id: '019a0000-0000-7000-8000-000000000001',
    attributes: { registration: 'AB12 CDE' },
    meta: {},
    rels: { allocated_location: 'l1' },
  });
  const eventsOf = (ops: WriteOp[]) =>
    buildTransaction(ops)
      .items.flatMap((i) => (i.Put?.Item && 'event' in i.Put.Item ? [i.Put.Item as StoredEvent] : []))
      .map(({ event, subject, actor: who, data, occurred_at, pk, gsi1pk }) => ({
        event,
        subject,
        who,
        data,
        occurred_at,
        pk,
        gsi1pk,
      }));

  it('a create, a replace and a delete each put their event, owned by their op, after the writes', () => {
    const ops: WriteOp[] = [
      { create: vehicle },
      { replace: { ...vehicle, version: 2 }, was: vehicle },
      { delete: { ...vehicle, version: 2 } },
    ];
    const { items, owners } = buildTransaction(ops);
    expect(items.slice(-3).every((i) => i.Put?.ConditionExpression === 'attribute_not_exists(pk)')).toBe(
      true,
    );
    expect(owners.slice(-3)).toEqual([0, 1, 2]);
    const subject = { type: 'vehicles', id: vehicle.id };
    expect(eventsOf(ops)).toEqual([
      expect.objectContaining({ event: 'vehicle.created', subject, who: actor, pk: 'EVENTS#o' }),
      expect.objectContaining({ event: 'vehicle.updated', subject }),
      expect.objectContaining({ event: 'vehicle.deleted', subject, data: subject }),
    ]);
    const [created] = eventsOf(ops);
    expect(created?.gsi1pk).toBe(`EVENTS#${vehicle.id}`);
    expect(created?.occurred_at).toBe('2026-11-23T09:00:00.000Z');
    // The resource as the API shows it, without links.
    expect(created?.data).toEqual({
      type: 'vehicles',
      id: vehicle.id,
      attributes: { registration: 'AB12 CDE' },
      meta: {},
      relationships: expect.objectContaining({
        allocated_location: { data: { type: 'locations', id: 'l1' } },
      }),
    });
  });

  it('a domain action its type declares names the event; one it does not declare is refused', () => {
    expect(eventsOf([{ replace: vehicle, was: vehicle, as: 'allocated' }])[0]?.event).toBe(
      'vehicle.allocated',
    );
    expect(() => buildTransaction([{ replace: vehicle, was: vehicle, as: 'repainted' }])).toThrow(
      /no repainted event/,
    );
  });

  it('list upkeep, counters, claims and checks are not events; audit entries are not either', () => {
    const entry = toStoredResource(auditEvents, { orgId: 'o', id: 'a1', attributes: {}, meta: {} });
    expect(
      eventsOf([
        { link: { key: vehicles.keyOf('o', 'v2'), relationship: 'equipment', id: 'e1' } },
        { unlink: { record: vehicle, relationship: 'equipment', id: 'e1' } },
        { count: { key, by: 1 } },
        { claim: { pk: 'ORG#o#codes', sk: 'X' } },
        { check: key },
        { create: entry },
      ]),
    ).toEqual([]);
  });

  it('a record of a type that declared no events cannot be written', () => {
    expect(() => buildTransaction([{ create: { ...vehicle, type: 'undeclared' } }])).toThrow(
      /undeclared records change without declaring their events/,
    );
  });
});

describe('buildTransaction: the id directory (issue 42, item 2: a record is found by its id alone)', () => {
  const vehicle = toStoredResource(vehicles, {
    orgId: 'o',
    id: 'v1',
    attributes: { registration: 'AB12 CDE' },
    meta: {},
    rels: {},
  });
  const entryOf = (items: ReturnType<typeof buildTransaction>['items']) =>
    items.filter((item) => (item.Put?.Item?.pk ?? item.Delete?.Key?.pk) === 'ID#v1');

  it("a create puts the record's entry (its organisation and type) once its transaction has committed, outside it (issue 42, item 7)", () => {
    const { items, directory } = buildTransaction([{ create: vehicle }]);
    expect(directory).toEqual([{ put: { pk: 'ID#v1', sk: 'ID', org_id: 'o', type: 'vehicles' } }]);
    expect(entryOf(items)).toEqual([]);
  });

  it('a delete removes it; a replace leaves it alone', () => {
    expect(buildTransaction([{ delete: vehicle }]).directory).toEqual([
      { remove: { pk: 'ID#v1', sk: 'ID' } },
    ]);
    expect(buildTransaction([{ replace: { ...vehicle, version: 2 }, was: vehicle }]).directory).toEqual([]);
  });

  it('a record deleted from its key and put where it is parked keeps its entry: one action on it', () => {
    const parked = { ...vehicle, pk: 'ORG#o#vehicles#deleted' };
    expect(buildTransaction([{ delete: vehicle }, { put: parked }]).directory).toEqual([
      { put: { pk: 'ID#v1', sk: 'ID', org_id: 'o', type: 'vehicles' } },
    ]);
  });

  it('an item put outside tenant partitions (a principal) has no entry', () => {
    const principal = { pk: 'PRINCIPAL#v1', sk: 'PRINCIPAL', id: 'v1', org_id: 'o', type: 'vehicles' };
    expect(buildTransaction([{ put: principal }]).directory).toEqual([]);
  });

  it('issue 42, item 7: a record of a type every route reaches through its organisation (an equipment item) has none', () => {
    const item = { ...vehicle, type: 'equipment-items', pk: 'ORG#o#equipment-items' };
    expect(buildTransaction([{ create: item }]).directory).toEqual([]);
    expect(buildTransaction([{ delete: item }]).directory).toEqual([]);
  });
});

describe("buildTransaction: a counted filter's counts (FilterOption.counted) on the type's counter item", () => {
  const item = toStoredResource(equipmentItems, {
    orgId: 'o',
    id: 'e1',
    attributes: { serial: 'S1', status: 'active' },
    meta: {},
  });
  // As the create stored it.
  const { stored } = countMoves(item, true);
  /** The counter update's numbers by name, and the record the transaction puts. */
  const moved = (op: WriteOp) => {
    const { items } = buildTransaction([op]);
    const update = items.find((i) => i.Update?.Key?.sk === 'equipment-items')?.Update;
    const names = update?.ExpressionAttributeNames ?? {};
    const values = update?.ExpressionAttributeValues ?? {};
    return {
      counts: Object.fromEntries(Object.entries(names).map(([a, name]) => [name, values[`:${a.slice(1)}`]])),
      put: items.find((i) => i.Put)?.Put?.Item,
    };
  };

  it('a create counts the record under its value, a change of value moves it, another change leaves it, a delete uncounts it', () => {
    expect(moved({ create: item }).counts).toEqual({ count: 1, 'status#active': 1 });
    const lost = changedRecord(equipmentItems, stored, { attributes: { status: 'lost' } });
    expect(moved({ replace: lost, was: stored }).counts).toEqual({ 'status#active': -1, 'status#lost': 1 });
    expect(
      moved({
        replace: changedRecord(equipmentItems, stored, { attributes: { description: 'd' } }),
        was: stored,
      }),
    ).toEqual({ counts: {}, put: expect.objectContaining({ counted: ['status#active'] }) });
    expect(moved({ delete: stored }).counts).toEqual({ count: -1, 'status#active': -1 });
  });

  it('stores the counts a record is in, never what they were before the write', () => {
    const lost = changedRecord(equipmentItems, stored, { attributes: { status: 'lost' } });
    expect(lost.counted_before).toEqual(['status#active']);
    const { put } = moved({ replace: lost, was: stored });
    expect(put?.counted).toEqual(['status#lost']);
    expect(put).not.toHaveProperty('counted_before');
    expect(moved({ create: item }).put).not.toHaveProperty('counted_before');
  });
});

describe("buildTransaction: a per-parent counted filter's counts on its parent's children counter", () => {
  const hazard = toStoredResource(siteHazards, {
    orgId: 'o',
    id: 'h1',
    attributes: { title: 'Excavation', severity: 'high', status: 'active' },
    meta: {},
    rels: { pre_construction_information: 'p1' },
  });
  const { stored } = countMoves(hazard, true);
  /** Each counter update's numbers by name, by the counter's sort key. */
  const moved = (op: WriteOp) =>
    Object.fromEntries(
      buildTransaction([op]).items.flatMap((i) => {
        const update = i.Update;
        if (!update?.Key?.pk?.endsWith('#counters')) return [];
        const names = update.ExpressionAttributeNames ?? {};
        const values = update.ExpressionAttributeValues ?? {};
        const counts = Object.fromEntries(
          Object.entries(names).map(([a, name]) => [name, values[`:${a.slice(1)}`]]),
        );
        return [[update.Key.sk, counts]];
      }),
    );

  it("a pack's hazard is counted by status and severity in the pack's counter, and by nothing on its type's but `count`", () => {
    const pack = 'pre-construction-information#p1#site-hazards';
    expect(moved({ create: hazard })).toEqual({
      'site-hazards': { count: 1 },
      [pack]: { 'status#active': 1, 'severity#high': 1 },
    });
    const retired = changedRecord(siteHazards, stored, { attributes: { status: 'retired' } });
    expect(moved({ replace: retired, was: stored })).toEqual({
      [pack]: { 'status#active': -1, 'status#retired': 1 },
    });
  });

  it("an organisation's count name holding `@` stays on its type's counter", () => {
    expect(countedIn({ org_id: 'o', type: 'users' }, 'email#a@b.example')).toEqual({
      key: counterKey('o', 'users'),
      name: 'email#a@b.example',
    });
  });
});
