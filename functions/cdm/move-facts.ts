/**
 * What the CDM machines' party rules and guards decide from: types only, below both the declarations that
 * decide (`*\/definition.ts`) and the modules that read them (`*\/moves.ts`, loaded when a move is made),
 * so neither imports the other back.
 */
import type { StoredResource } from '#shared/data/stored-resource';
import type { PlanFacts } from './rules/documents';
import type { DutyRole } from './rules/duty-holders';

/** The roles the caller holds on the record's scheme: every CDM move's party rules read them. */
export interface DutyFacts {
  held: ReadonlySet<DutyRole>;
}

export interface HandoverFacts extends DutyFacts {
  /** What completeness is decided from: read for a draft only (a plan handed over is not handed over again). */
  completeness: PlanFacts | null;
}

/** What accepting a change touches: the plan, the risk it names, the hazard or hazard proposal, the pack. */
export interface AcceptanceTarget {
  plan: StoredResource;
  risk: StoredResource | null;
  proposal: StoredResource | null;
  hazard: StoredResource | null;
  /** Read only when the change accepts a pending hazard proposal, which lists the new hazard on it. */
  pack: StoredResource | null;
}

export interface DecisionFacts extends DutyFacts {
  /** Read for a pending change only (a decision is final). */
  target: AcceptanceTarget | null;
}
