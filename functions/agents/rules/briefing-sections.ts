/**
 * What the service adds to a briefing's generated sections: each section's `type` (from its title) and
 * `severity` (the worst its items report), and the briefing's status. Pure.
 *
 * - status: `generating` (created before its result), `ready` (result stored), `failed`, `archived`.
 * - section type: `risk`, `action`, `compliance` or `summary`, from the first of these words its
 *   title contains: risk/hazard/danger → risk; action/recommend/next step → action;
 *   complian/regulat/legal/permit/cdm → compliance; otherwise summary.
 * - severity: `red`, `amber` or `green`: the worst `severity` (or `rag`) any item reports; items that
 *   report none count as green.
 */
export const briefingStatuses = ['generating', 'ready', 'failed', 'archived'] as const;
export const sectionTypes = ['risk', 'action', 'compliance', 'summary'] as const;
export const severities = ['red', 'amber', 'green'] as const;

export type SectionType = (typeof sectionTypes)[number];
export type Severity = (typeof severities)[number];

const typeRules: [RegExp, SectionType][] = [
  [/risk|hazard|danger/i, 'risk'],
  [/action|recommend|next step/i, 'action'],
  [/complian|regulat|legal|permit|cdm/i, 'compliance'],
];

export const sectionType = (title: string): SectionType =>
  typeRules.find(([rule]) => rule.test(title))?.[1] ?? 'summary';

export const sectionSeverity = (items: readonly Record<string, unknown>[]): Severity => {
  const reported = items
    .map((item) => item.severity ?? item.rag)
    .filter((v): v is Severity => (severities as readonly unknown[]).includes(v));
  return severities.find((s) => reported.includes(s)) ?? 'green';
};
