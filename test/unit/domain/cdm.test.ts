import { describe, expect, it } from 'vitest';
import {
  applyRefusal,
  decidingRole,
  handoverGaps,
  planContentSections,
  proposedChangeProblems,
} from '#functions/cdm/rules/documents';
import { type ActiveAppointment, roleRefusal, rolesHeld } from '#functions/cdm/rules/duty-holders';

const appointments: ActiveAppointment[] = [
  { role: 'client', appointee: { type: 'users', id: 'u1' } },
  { role: 'principal_contractor', appointee: { type: 'teams', id: 't1' } },
  { role: 'designer', appointee: { type: 'organisations', id: 'o2' } },
  { role: 'contractor', appointee: { type: 'service-accounts', id: 's1' } },
];

describe('duty holders', () => {
  it('a caller holds the roles appointed to itself, its teams and the organisations it holds grants in', () => {
    expect(rolesHeld({ id: 'u1', teams: ['t1'], organisations: ['o1'] }, appointments)).toEqual(
      new Set(['client', 'principal_contractor']),
    );
    expect(rolesHeld({ id: 'u9', teams: [], organisations: ['o2'] }, appointments)).toEqual(
      new Set(['designer']),
    );
    expect(rolesHeld({ id: 's1', teams: [], organisations: [] }, appointments)).toEqual(
      new Set(['contractor']),
    );
    // An id that happens to equal a team's id is not a member of it.
    expect(rolesHeld({ id: 't1', teams: [], organisations: [] }, appointments)).toEqual(new Set());
  });

  it('a refusal names the role(s) required; holding one of them is enough', () => {
    expect(roleRefusal(new Set(['designer']), ['client', 'principal_contractor'], 'propose changes')).toBe(
      'Only the Client or the Principal Contractor on this scheme may propose changes.',
    );
    expect(
      roleRefusal(new Set(['principal_contractor']), ['client', 'principal_contractor'], 'x'),
    ).toBeNull();
  });

  it('the Client’s change is decided by the Principal Contractor and the other way round', () => {
    expect(decidingRole('client')).toBe('principal_contractor');
    expect(decidingRole('principal_contractor')).toBe('client');
  });
});

describe('handover', () => {
  const written = Object.fromEntries(planContentSections.map((s) => [s, { text: s }]));

  it('a plan with every content section, a risk, and every active hazard controlled is complete', () => {
    expect(
      handoverGaps({ sections: written, riskHazards: ['h1', 'h2'], activeHazards: ['h1', 'h2'] }),
    ).toEqual([]);
  });

  it('names each missing section, a plan without risks, and each uncontrolled hazard', () => {
    const { welfare: _welfare, ...withoutWelfare } = written;
    expect(handoverGaps({ sections: withoutWelfare, riskHazards: [], activeHazards: ['h1'] })).toEqual([
      'section welfare is not written',
      'the plan has no risks',
      'site hazard h1 has no risk controlling it',
    ]);
    expect(
      handoverGaps({ sections: { ...written, site_rules: null }, riskHazards: ['h1'], activeHazards: [] }),
    ).toEqual(['section site_rules is not written']);
  });
});

describe('proposed change shape', () => {
  const none = { risk: false, hazard: false, hazard_proposal: false };
  const pointersOf = (facts: Parameters<typeof proposedChangeProblems>[0]) =>
    proposedChangeProblems(facts).map((p) => p.pointer);

  it('a section change is replace with exactly that section proposed, and names no relationships', () => {
    expect(
      pointersOf({
        section: 'welfare',
        operation: 'replace',
        proposedKeys: ['welfare'],
        relationships: none,
      }),
    ).toEqual([]);
    expect(
      pointersOf({
        section: 'welfare',
        operation: 'create',
        proposedKeys: ['welfare', 'induction'],
        relationships: { ...none, risk: true },
      }),
    ).toEqual(['/data/attributes/operation', '/data/attributes/proposed', '/data/relationships/risk']);
    expect(
      pointersOf({ section: 'welfare', operation: 'replace', proposedKeys: null, relationships: none }),
    ).toEqual(['/data/attributes/proposed']);
  });

  it('a risk create proposes risk and names a hazard or a hazard proposal, exactly one', () => {
    const create = { section: 'risks' as const, operation: 'create' as const, proposedKeys: ['risk'] };
    expect(pointersOf({ ...create, relationships: { ...none, hazard: true } })).toEqual([]);
    expect(pointersOf({ ...create, relationships: { ...none, hazard_proposal: true } })).toEqual([]);
    expect(pointersOf({ ...create, relationships: none })).toEqual(['/data/relationships/hazard']);
    expect(
      pointersOf({ ...create, relationships: { ...none, hazard: true, hazard_proposal: true } }),
    ).toEqual(['/data/relationships/hazard']);
  });

  it('update and delete name the risk; delete proposes nothing; replace is not a risk operation', () => {
    expect(
      pointersOf({
        section: 'risks',
        operation: 'update',
        proposedKeys: ['risk'],
        relationships: { ...none, risk: true },
      }),
    ).toEqual([]);
    expect(
      pointersOf({ section: 'risks', operation: 'update', proposedKeys: ['risk'], relationships: none }),
    ).toEqual(['/data/relationships/risk']);
    expect(
      pointersOf({
        section: 'risks',
        operation: 'delete',
        proposedKeys: ['risk'],
        relationships: { ...none, risk: true },
      }),
    ).toEqual(['/data/attributes/proposed']);
    expect(
      pointersOf({
        section: 'risks',
        operation: 'delete',
        proposedKeys: [],
        relationships: { ...none, risk: true },
      }),
    ).toEqual([]);
    expect(
      pointersOf({ section: 'risks', operation: 'replace', proposedKeys: ['risk'], relationships: none }),
    ).toEqual(['/data/attributes/operation']);
  });
});

describe('a change applies cleanly when what it touches has not moved since its base version', () => {
  const base = {
    basedOnVersion: 5,
    sectionChangedAt: 0,
    riskChangedAt: null,
    hazardAvailable: true,
  } as const;

  it('a section replace: refused once the section changed after the base version', () => {
    expect(
      applyRefusal({ ...base, section: 'welfare', operation: 'replace', sectionChangedAt: 5 }),
    ).toBeNull();
    expect(applyRefusal({ ...base, section: 'welfare', operation: 'replace', sectionChangedAt: 6 })).toMatch(
      /changed in version 6/,
    );
  });

  it('a risk update or delete: refused if the risk changed after the base version or is gone', () => {
    expect(applyRefusal({ ...base, section: 'risks', operation: 'update', riskChangedAt: 3 })).toBeNull();
    expect(applyRefusal({ ...base, section: 'risks', operation: 'delete', riskChangedAt: 7 })).toMatch(
      /changed in version 7/,
    );
    expect(applyRefusal({ ...base, section: 'risks', operation: 'update', riskChangedAt: null })).toMatch(
      /no longer exists/,
    );
  });

  it('a risk create: refused only when its hazard is no longer available', () => {
    expect(applyRefusal({ ...base, section: 'risks', operation: 'create', sectionChangedAt: 9 })).toBeNull();
    expect(applyRefusal({ ...base, section: 'risks', operation: 'create', hazardAvailable: false })).toMatch(
      /no longer/,
    );
  });
});
