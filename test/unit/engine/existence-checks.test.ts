/**
 * A write checks that each record its relationships name exists in the organisation. A target type whose
 * declaration the function has not loaded cannot be checked: the write refuses (a programming error, a
 * 500) rather than store a link to a record nobody looked for (another organisation's, or none).
 */
import { describe, expect, it } from 'vitest';
import { existenceChecks } from '#shared/engine/record-writes';
import { defineResource } from '#shared/engine/resource-definition';

const ORG = '0190a0a0-0000-7000-8000-000000000001';
const ID = '0190a0a0-0000-7000-8000-000000000002';

const targets = defineResource({ type: 'test-existence-targets' });
const linking = defineResource({
  type: 'test-existence-linking',
  relationships: {
    target: { type: targets.type },
    elsewhere: { type: 'test-existence-undeclared' },
  },
});

describe('a write checks every record its relationships name, and refuses a link it cannot check', () => {
  it('a link to a declared type is a check of its key in the organisation, at its pointer', () => {
    expect(existenceChecks(linking, ORG, { target: ID })).toEqual([
      { op: { check: targets.keyOf(ORG, ID) }, pointer: '/data/relationships/target/data' },
    ]);
  });

  it('a link to a type whose declaration is not loaded throws, never passes unchecked', () => {
    expect(() => existenceChecks(linking, ORG, { elsewhere: ID })).toThrow(
      'test-existence-linking.elsewhere links to test-existence-undeclared, whose declaration is not loaded here',
    );
    // An empty link names no record: nothing to check.
    expect(existenceChecks(linking, ORG, { elsewhere: null })).toEqual([]);
  });
});
