/**
 * What an action's guards and its type's party rules read (one BatchGetItem): its type (the evidence each
 * move needs, who may make it, whether completion is verified) and the count of the evidence it holds
 * (its comments, counted under it by the comments' own writes); with who asks, for four eyes.
 */
import { comments } from '#functions/comments/definitions';
import type { Principal } from '#shared/auth/principal';
import { partitionFrom } from '#shared/data/access-patterns';
import { batchGet } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { counterKey, keyId, type StoredResource } from '#shared/data/stored-resource';
import { actionTypes } from './action-types';
import type { EvidenceKind } from './rules/actions';

export interface ActionFacts {
  type: StoredResource | null;
  /** How many of each kind of evidence the action holds. */
  evidence: Record<EvidenceKind, number>;
  /** The user asking, or null (a service account, the service). */
  callerId: string | null;
}

export const readActionFacts = async (
  _scope: Scope,
  action: StoredResource,
  principal: Principal | null,
): Promise<ActionFacts> => {
  const typeKey = actionTypes.keyOf(action.org_id, String(action.rels.action_type));
  const commentsKey = counterKey(
    action.org_id,
    partitionFrom(comments.keys['filter-subject'], { 'attributes.subject.id': action.id }),
  );
  // The action was read in the caller's scope, so its organisation's items are the caller's to read.
  const found = await batchGet<StoredResource & { count?: number }>([typeKey, commentsKey]);
  const byKey = new Map(found.map((item) => [keyId(item), item]));
  return {
    type: byKey.get(keyId(typeKey)) ?? null,
    evidence: { comment: byKey.get(keyId(commentsKey))?.count ?? 0 },
    callerId: principal?.kind === 'user' ? principal.id : null,
  };
};
