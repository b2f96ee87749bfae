/**
 * What the gate checks when someone signs in to a site (pure): each induction the site requires (every
 * induction type that names the site), and the qualification specification the site requires, on the day
 * of the sign-in. The result is kept on the attendance as it was (`checks`), and decides whether the sign-in
 * is refused: a missing induction always refuses; a specification not met refuses or only warns, as the
 * site's settings say. A manager may override a refusal with a reason. Visitors are escorted, not checked; a
 * worker without an account cannot be checked, so is refused unless overridden.
 */
import type { AwardEntry } from '#functions/qualifications/rules/awards';
import { evaluate, type Rule, type RuleResult } from '#functions/qualifications/rules/rules';

export interface GateRules {
  /** Induction types that name the site. */
  inductions: readonly string[];
  specification: { id: string; rule: Rule } | null;
  /** Whether a specification not met refuses the sign-in or is only recorded. */
  missingQualification: 'refuse' | 'warn';
}

export interface GateChecks {
  on: string;
  outcome: 'passed' | 'warned' | 'refused' | 'overridden' | 'not_checked';
  inductions: RuleResult[];
  specification: { id: string; met: boolean; result: RuleResult } | null;
  /** What was missing, in words, for the refusal or the warning. */
  missing: string[];
}

export const gateChecks = (
  rules: GateRules,
  /** The person's awards, or null for a worker without an account (nothing can be checked). */
  awards: readonly AwardEntry[] | null,
  day: string,
  overridden: boolean,
): GateChecks => {
  const inductions = rules.inductions.map((type) =>
    evaluate({ qualification_type: type }, awards ?? [], day),
  );
  const specification = rules.specification && {
    id: rules.specification.id,
    result: evaluate(rules.specification.rule, awards ?? [], day),
  };
  const missing = [
    ...(awards === null ? ['an account: a worker without one cannot be checked'] : []),
    ...inductions
      .filter((result) => !result.met)
      .map(
        (result) =>
          `the site induction (qualification type ${'qualification_type' in result && result.qualification_type})`,
      ),
    ...(specification && !specification.result.met
      ? [`the site's required qualifications (specification ${specification.id})`]
      : []),
  ];
  const refusing =
    awards === null ||
    inductions.some((result) => !result.met) ||
    (specification !== null && !specification.result.met && rules.missingQualification === 'refuse');
  const outcome = refusing
    ? overridden
      ? 'overridden'
      : 'refused'
    : missing.length > 0
      ? 'warned'
      : 'passed';
  return {
    on: day,
    outcome,
    inductions,
    specification: specification && { ...specification, met: specification.result.met },
    missing,
  };
};

/** A visitor's checks: none are made. */
export const notChecked = (day: string): GateChecks => ({
  on: day,
  outcome: 'not_checked',
  inductions: [],
  specification: null,
  missing: [],
});
