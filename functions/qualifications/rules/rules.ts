/**
 * A qualification specification's rule: a qualification type, or `all_of` / `any_of` over rules, nested up
 * to `MAX_DEPTH` levels with at most `MAX_TYPES` types in all. Evaluating it for one person on one day says,
 * for every part of the rule, whether it is met and by which awards. Pure.
 */
import type * as z from 'zod';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';
import { type AwardEntry, countsOn } from './awards';

export type Rule = { qualification_type: string } | { all_of: Rule[] } | { any_of: Rule[] };

export const MAX_DEPTH = 4;
export const MAX_TYPES = 50;

/** zod's builders, handed in by the declaration's writes that load them: rules load no zod themselves. */
type Zod = SchemaBuilders['z'];

/** The schema of a rule nested at most `depth` more levels. */
const ruleAt = (zod: Zod, depth: number): z.ZodType<Rule> => {
  const list = (rule: z.ZodType<Rule>) => zod.array(rule).min(1).max(20);
  const leaf = zod.strictObject({ qualification_type: zod.uuid() });
  if (depth <= 1) return leaf;
  const inner = zod.lazy(() => ruleAt(zod, depth - 1));
  return zod.union([
    leaf,
    zod.strictObject({ all_of: list(inner) }),
    zod.strictObject({ any_of: list(inner) }),
  ]);
};

/** The qualification types a rule names, each once, in the order they first appear. */
export const typesOf = (rule: Rule): string[] => {
  if ('qualification_type' in rule) return [rule.qualification_type];
  const parts = 'all_of' in rule ? rule.all_of : rule.any_of;
  return [...new Set(parts.flatMap(typesOf))];
};

/**
 * A rule's schema, built when a write needs it: a function, as the declarations' writes are, so that
 * loading the area (every read) constructs none of its schemas.
 */
export const ruleSchema = (zod: Zod) =>
  ruleAt(zod, MAX_DEPTH).refine((rule) => typesOf(rule).length <= MAX_TYPES, {
    error: `names at most ${MAX_TYPES} qualification types`,
  });

export interface AwardProof {
  id: string;
  number: string | null;
  issued_at: string;
  expires_at: string | null;
}

/** A rule's outcome: each part met or not; a type with the awards that prove it that day. */
export type RuleResult =
  | { qualification_type: string; met: boolean; awards: AwardProof[] }
  | { all_of: RuleResult[]; met: boolean }
  | { any_of: RuleResult[]; met: boolean };

const proofSchema = (zod: Zod) =>
  zod.strictObject({
    id: zod.string(),
    number: zod.string().nullable(),
    issued_at: zod.iso.date(),
    expires_at: zod.iso.date().nullable(),
  });

/** What `evaluate` answers for a rule nested at most `depth` more levels (served in read attributes). */
const resultAt = (zod: Zod, depth: number): z.ZodType<RuleResult> => {
  const leaf = zod.strictObject({
    qualification_type: zod.string(),
    met: zod.boolean(),
    awards: zod.array(proofSchema(zod)),
  });
  if (depth <= 1) return leaf;
  const inner = zod.lazy(() => resultAt(zod, depth - 1));
  return zod.union([
    leaf,
    zod.strictObject({ all_of: zod.array(inner), met: zod.boolean() }),
    zod.strictObject({ any_of: zod.array(inner), met: zod.boolean() }),
  ]);
};

export const ruleResultSchema = (zod: Zod) => resultAt(zod, MAX_DEPTH);

export const evaluate = (rule: Rule, awards: readonly AwardEntry[], day: string): RuleResult => {
  if ('qualification_type' in rule) {
    const proving = awards
      .filter((award) => award.qualification_type === rule.qualification_type && countsOn(award, day))
      .map(({ id, number, issued_at, expires_at }) => ({ id, number, issued_at, expires_at }));
    return { qualification_type: rule.qualification_type, met: proving.length > 0, awards: proving };
  }
  if ('all_of' in rule) {
    const parts = rule.all_of.map((part) => evaluate(part, awards, day));
    return { all_of: parts, met: parts.every((part) => part.met) };
  }
  const parts = rule.any_of.map((part) => evaluate(part, awards, day));
  return { any_of: parts, met: parts.some((part) => part.met) };
};
