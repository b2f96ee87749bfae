/**
 * The declared state machine's pure part (shared/engine/lifecycle.ts, issue 41 item 1): the reasons a
 * move is refused, decided from the declaration, the record and the caller alone (permission, party
 * rules, state) and from the facts a guard reads, which are read only when a guarded move is otherwise
 * open; and the verb a PATCH alias moves by.
 */
import { describe, expect, it } from 'vitest';
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { allowedTransitionsFor } from '#shared/engine/allowed-transitions';
import type { ResourceDefinition } from '#shared/engine/declaration';
import {
  allowedTransitions,
  defineLifecycle,
  needsFacts,
  refusalOf,
  verbReaching,
} from '#shared/engine/lifecycle';

const ORG = 'org-1';
type Facts = { evidence: number };

/** A permit: drafted, issued (its holder may not issue it), closed; issuing needs evidence. */
const permits = defineLifecycle({
  attribute: 'status',
  states: ['draft', 'issued', 'closed'],
  noun: 'permit',
  facts: async (): Promise<Facts> => ({ evidence: 0 }),
  transitions: {
    issue: {
      from: ['draft'],
      to: 'issued',
      event: 'issued',
      permission: 'permits:issue' as never,
      parties: [
        (permit, principal) =>
          permit.rels.holder === principal.id ? 'Nobody issues their own permit.' : null,
      ],
      guards: [(_permit, facts: Facts) => (facts.evidence > 0 ? [] : ['A permit needs its evidence first.'])],
    },
    close: { from: ['issued'], to: 'closed', event: 'closed' },
  },
});

const permit = (status: string, holder = 'holder-1'): StoredResource => ({
  pk: 'pk',
  sk: 'sk',
  type: 'permits',
  id: 'permit-1',
  org_id: ORG,
  attributes: { status },
  meta: {},
  rels: { holder },
  version: 1,
});

const caller = (id: string, permissions: string[]): Principal => ({
  id,
  kind: 'user',
  name: id,
  permissions: new Map([[ORG, new Set(permissions)]]) as never,
  teams: {},
});
const issuer = caller('issuer-1', ['permits:issue', 'permits:manage']);

describe('refusalOf: who may (403) and the state (409), from the record and the caller', () => {
  it('a missing permission is a reason naming it; the family’s manage is the default', () => {
    const viewer = caller('viewer-1', ['permits:view']);
    expect(refusalOf(permits, 'permits', 'issue', permit('draft'), viewer).who).toEqual([
      'Needs the permits:issue permission.',
    ]);
    expect(refusalOf(permits, 'permits', 'close', permit('issued'), viewer).who).toEqual([
      'Needs the permits:manage permission.',
    ]);
  });

  it('a party rule is a reason: the holder may not issue their own permit, though they hold the permission', () => {
    const holder = caller('holder-1', ['permits:issue']);
    expect(refusalOf(permits, 'permits', 'issue', permit('draft'), holder)).toEqual({
      who: ['Nobody issues their own permit.'],
      state: [],
    });
  });

  it('a move from a state it does not leave is a state reason, spoken with its article', () => {
    expect(refusalOf(permits, 'permits', 'close', permit('draft'), issuer).state).toEqual([
      'A permit draft cannot be closed.',
    ]);
    const users = { ...permits, noun: 'user', article: 'A' as const };
    expect(refusalOf(users, 'permits', 'close', permit('draft'), issuer).state).toEqual([
      'A user draft cannot be closed.',
    ]);
    const orders = { ...permits, noun: 'order' };
    expect(refusalOf(orders, 'permits', 'close', permit('draft'), issuer).state).toEqual([
      'An order draft cannot be closed.',
    ]);
  });
});

describe('guards and their facts', () => {
  it('a guard’s reasons come from the facts: no evidence refuses issue; evidence allows it', () => {
    const without = allowedTransitions(permits, 'permits', permit('draft'), issuer, { evidence: 0 });
    expect(without).toEqual([
      { verb: 'issue', allowed: false, reasons: ['A permit needs its evidence first.'] },
      { verb: 'close', allowed: false, reasons: ['A permit draft cannot be closed.'] },
    ]);
    const withEvidence = allowedTransitions(permits, 'permits', permit('draft'), issuer, { evidence: 2 });
    expect(withEvidence[0]).toEqual({ verb: 'issue', allowed: true, reasons: [] });
  });

  it('facts are needed only for a guarded move otherwise open: not for a refused caller, a wrong state or no guard', () => {
    expect(needsFacts(permits, 'permits', 'issue', permit('draft'), issuer)).toBe(true);
    const holder = caller('holder-1', ['permits:issue']);
    expect(needsFacts(permits, 'permits', 'issue', permit('draft'), holder)).toBe(false);
    expect(needsFacts(permits, 'permits', 'issue', permit('issued'), issuer)).toBe(false);
    expect(needsFacts(permits, 'permits', 'close', permit('issued'), issuer)).toBe(false);
  });

  it('allowedTransitionsFor reads the facts once when a guarded move is open, and not at all otherwise', async () => {
    let reads = 0;
    const counted = {
      ...permits,
      facts: async (): Promise<Facts> => {
        reads += 1;
        return { evidence: 1 };
      },
    };
    const definition = {
      type: 'permits',
      permission: 'permits',
      lifecycle: counted,
    } as unknown as ResourceDefinition;
    const scope = {} as Scope;
    const opened = await allowedTransitionsFor(scope, definition, permit('draft'), issuer);
    expect(opened?.[0]).toEqual({ verb: 'issue', allowed: true, reasons: [] });
    expect(reads).toBe(1);
    await allowedTransitionsFor(scope, definition, permit('issued'), issuer);
    await allowedTransitionsFor(scope, definition, permit('draft'), caller('holder-1', ['permits:issue']));
    expect(reads).toBe(1);
  });
});

describe('verbReaching: the move a PATCH alias makes', () => {
  it('is the transition leaving the record’s state for the state sent; none when no move goes there from here', () => {
    expect(verbReaching(permits, permit('draft'), 'issued')).toBe('issue');
    expect(verbReaching(permits, permit('issued'), 'closed')).toBe('close');
    expect(verbReaching(permits, permit('draft'), 'closed')).toBeUndefined();
    expect(verbReaching(permits, permit('draft'), 'draft')).toBeUndefined();
  });
});
