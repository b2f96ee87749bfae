/**
 * The two CDM documents of a scheme, their sections and who owns each, the rule for when a construction
 * phase plan may be handed over, and the rules a proposed change to a handed-over plan must follow.
 */
import type { DutyRole } from './duty-holders';

/**
 * Pre-construction information (regulation 4(4), L153 appendix 2). The Client owns the pack and its site
 * hazards; design sections belong to the designers who hold the information.
 */
export const preConstructionSections = {
  project_description: 'client',
  client_brief: 'client',
  existing_information: 'client',
  environmental_restrictions: 'client',
  significant_design_hazards: 'principal_designer',
  health_and_safety_file: 'principal_designer',
  design_information: 'designer',
} as const satisfies Record<string, DutyRole>;

export type PreConstructionSection = keyof typeof preConstructionSections;

/**
 * Construction phase plan (regulation 12, L153 appendix 3). The Principal Contractor draws it up; the
 * Client's checklist of its own arrangements is the Client's.
 */
export const planSections = {
  health_and_safety_aims: 'principal_contractor',
  site_rules: 'principal_contractor',
  induction: 'principal_contractor',
  welfare: 'principal_contractor',
  emergency_arrangements: 'principal_contractor',
  monitoring_and_review: 'principal_contractor',
  key_operatives: 'principal_contractor',
  client_checklist: 'client',
  risks: 'principal_contractor',
} as const satisfies Record<string, DutyRole>;

export type PlanSection = keyof typeof planSections;

/** The plan sections whose content is written as a whole; `risks` is the list of risk records. */
export const planContentSections = Object.keys(planSections).filter(
  (s): s is Exclude<PlanSection, 'risks'> => s !== 'risks',
);

/** Sections the caller's roles leave unwritable, each with the role that owns it. */
export const unownedSections = <S extends string>(
  owners: Record<S, DutyRole>,
  sections: readonly S[],
  held: ReadonlySet<DutyRole>,
): { section: S; owner: DutyRole }[] =>
  sections.flatMap((section) => (held.has(owners[section]) ? [] : [{ section, owner: owners[section] }]));

export interface PlanFacts {
  sections: Partial<Record<string, unknown>>;
  /** The hazard each risk controls. */
  riskHazards: readonly string[];
  /** Active hazards of the scheme's pre-construction information. */
  activeHazards: readonly string[];
}

/**
 * A plan is complete, and may be handed over, when every content section is written, it has at least
 * one risk, and every active site hazard of the pre-construction information is controlled by a risk.
 * Returns what is missing (empty when complete).
 */
export const handoverGaps = (plan: PlanFacts): string[] => [
  ...planContentSections.filter((s) => plan.sections[s] == null).map((s) => `section ${s} is not written`),
  ...(plan.riskHazards.length === 0 ? ['the plan has no risks'] : []),
  ...plan.activeHazards
    .filter((h) => !plan.riskHazards.includes(h))
    .map((h) => `site hazard ${h} has no risk controlling it`),
];

export type ChangeOperation = 'replace' | 'create' | 'update' | 'delete';

export interface ProposedChangeFacts {
  section: PlanSection;
  operation: ChangeOperation;
  /** The member names of `proposed`, if it was sent. */
  proposedKeys: readonly string[] | null;
  relationships: { risk: boolean; hazard: boolean; hazard_proposal: boolean };
}

export interface Problem {
  pointer: string;
  detail: string;
}

/**
 * The shape rules of a proposed change: a section-level change is `replace` with `proposed` holding just
 * that section; a risk change is create/update/delete with `proposed.risk` for create and update and
 * nothing for delete; update and delete name the risk; a create names a hazard or a pending hazard
 * proposal, not both.
 */
export const proposedChangeProblems = (c: ProposedChangeFacts): Problem[] => {
  const problems: Problem[] = [];
  const rel = (name: keyof ProposedChangeFacts['relationships'], detail: string) =>
    problems.push({ pointer: `/data/relationships/${name}`, detail });
  const keys = c.proposedKeys ?? [];
  if (c.section !== 'risks') {
    if (c.operation !== 'replace') {
      problems.push({
        pointer: '/data/attributes/operation',
        detail: `A change to section ${c.section} uses operation replace.`,
      });
    }
    if (keys.length !== 1 || keys[0] !== c.section) {
      problems.push({
        pointer: '/data/attributes/proposed',
        detail: `proposed must hold exactly the one property ${c.section}.`,
      });
    }
    for (const name of ['risk', 'hazard', 'hazard_proposal'] as const) {
      if (c.relationships[name]) rel(name, 'A section-level change names no relationships.');
    }
    return problems;
  }
  if (c.operation === 'replace') {
    problems.push({
      pointer: '/data/attributes/operation',
      detail: 'A risk change uses operation create, update or delete.',
    });
    return problems;
  }
  const wantsRisk = c.operation !== 'delete';
  if (wantsRisk && (keys.length !== 1 || keys[0] !== 'risk')) {
    problems.push({ pointer: '/data/attributes/proposed', detail: 'proposed must hold exactly risk.' });
  }
  if (!wantsRisk && keys.length > 0) {
    problems.push({ pointer: '/data/attributes/proposed', detail: 'A deletion proposes nothing.' });
  }
  if (c.operation === 'create') {
    if (c.relationships.risk) rel('risk', 'A new risk has no id yet: do not name one.');
    if (c.relationships.hazard === c.relationships.hazard_proposal) {
      rel('hazard', 'A new risk names either a hazard or a pending hazard_proposal (one of the two).');
    }
  } else {
    if (!c.relationships.risk) rel('risk', `A risk ${c.operation} names the risk.`);
    if (c.relationships.hazard_proposal)
      rel('hazard_proposal', 'Only a new risk may name a hazard proposal.');
    if (c.operation === 'delete' && c.relationships.hazard) rel('hazard', 'A deletion names no hazard.');
  }
  return problems;
};

/** The Client's change is decided by the Principal Contractor and the other way round. */
export const decidingRole = (proposerRole: 'client' | 'principal_contractor'): DutyRole =>
  proposerRole === 'client' ? 'principal_contractor' : 'client';

export interface ApplyFacts {
  basedOnVersion: number;
  section: PlanSection;
  operation: ChangeOperation;
  /** The plan version at which the section last changed (0 if never). */
  sectionChangedAt: number;
  /** For risk updates and deletes: the plan version at which the risk last changed, or null if it is gone. */
  riskChangedAt: number | null;
  /** For risk creates: whether the named hazard is still active or the named proposal still pending. */
  hazardAvailable: boolean;
}

/**
 * Whether a change still applies to the plan as it is now (null) or why not. A change applies cleanly
 * when what it touches has not changed since the version it was based on: the section for a replace, the
 * risk for an update or delete; a new risk needs its hazard still active (or its proposal still
 * pending). Changes elsewhere in the plan do not stand in its way.
 */
export const applyRefusal = (f: ApplyFacts): string | null => {
  if (f.operation === 'replace') {
    return f.sectionChangedAt > f.basedOnVersion
      ? `Section ${f.section} changed in version ${f.sectionChangedAt}, after version ${f.basedOnVersion} this change was based on; propose it again.`
      : null;
  }
  if (f.operation === 'create') {
    return f.hazardAvailable ? null : 'The hazard this risk controls is no longer active or pending.';
  }
  if (f.riskChangedAt === null) return 'The risk this change names no longer exists.';
  return f.riskChangedAt > f.basedOnVersion
    ? `The risk changed in version ${f.riskChangedAt}, after version ${f.basedOnVersion} this change was based on; propose it again.`
    : null;
};
