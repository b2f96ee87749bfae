/**
 * A plan's history: each version a change makes is an entry filed under the plan, written in the change's
 * transaction (its creation, an edit, an accepted change, its handover).
 */
import type { Principal } from '#shared/auth/principal';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { fileChild } from '#shared/engine/children';
import { byPrincipal, newRecord } from '#shared/engine/record-writes';
import { planVersions } from './definitions';

export const versionEntry = (
  plan: StoredResource,
  principal: Principal,
  now: Date,
  change: { sections: string[]; operation: string; content: unknown; proposedChange?: string | undefined },
): WriteOp => {
  const record = newRecord(
    planVersions,
    plan.org_id,
    {
      attributes: {
        version: plan.meta.version,
        status: plan.attributes.status,
        sections: change.sections,
        operation: change.operation,
        content: change.content,
      },
      rels: {
        scheme: plan.rels.scheme ?? null,
        construction_phase_plan: plan.id,
        proposed_change: change.proposedChange ?? null,
        ...byPrincipal('created_by', principal),
      },
    },
    now,
  );
  return { create: fileChild(plan, record) };
};
