/**
 * Issue 20, item 6: `npm run synth:check` rehearses a deploy offline. Every stage, with and without a
 * custom domain and a street-works topic, synthesises with cdk-nag and within the quotas; the counts it
 * prints are the templates' own.
 */
import { describe, expect, it } from 'vitest';
import { QUOTAS } from '../../infra/quotas';
import { synthCheck } from '../../infra/synth-check';

describe('npm run synth:check (issue 20, item 6)', () => {
  const rows = synthCheck();

  it('checks every stage with and without a domain and a topic: cdk-nag and the quotas pass for each', () => {
    expect(rows.map((r) => `${r.stage} ${r.variant}`)).toEqual([
      'dev plain',
      'dev domain and topic',
      'staging plain',
      'staging domain and topic',
      'prod plain',
      'prod domain and topic',
    ]);
    for (const row of rows) expect(row.failures, `${row.stage} ${row.variant}`).toEqual([]);
  });

  it('counts what each template holds: a domain and a topic add resources, not routes; every stack within the quotas', () => {
    for (const row of rows) {
      expect(row.largestStack).toBeLessThanOrEqual(QUOTAS.resourcesPerStack);
      expect(row.routes).toBeLessThanOrEqual(QUOTAS.routes);
      expect(row.integrations).toBeLessThanOrEqual(QUOTAS.integrations);
      expect(row.stacks).toBeGreaterThan(20);
    }
    const [plain, withDomain] = rows;
    expect(withDomain?.resources).toBeGreaterThan(plain?.resources ?? 0);
    expect(withDomain?.routes).toBe(plain?.routes);
  });
});
