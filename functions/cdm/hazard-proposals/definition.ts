/**
 * A proposal of a new site hazard, which any appointed duty holder may make, and its moves: the Client
 * accepts it (the hazard is created and listed on the pack) or rejects it with a reason; a decision is
 * final. Who may is decided here from the caller's roles `moves.ts` reads; what a decision reads and writes
 * loads only when a move is made or asked about.
 */
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { defineLifecycle } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { dutyHolder } from '../construction-phase-plans/definition';
import {
  author,
  byCreation,
  decided,
  decider,
  decision,
  decisionInput,
  hazard,
  status,
} from '../definitions';
import type { DutyFacts } from '../move-facts';

/** The caller's roles and an acceptance's writes (`moves.ts`): every function reads this, few decide. */
const moves = () => import('./moves');

const PROPOSAL = 'hazard-proposals';
const PROPOSAL_STATUSES = ['pending', 'accepted', 'rejected'] as const;

/** The Client owns the pack and its hazards, so only the Client decides what joins them. */
const theClient = dutyHolder(['client'], 'decide hazard proposals');

export const hazardProposals = defineResource({
  type: PROPOSAL,
  tag: 'Pre-Construction Information',
  names: { one: 'HazardProposal', many: 'HazardProposals' },
  collectionPath: '/v3/pre-construction-information/{pre_construction_information_id}/hazard-proposals',
  itemPath: '/v3/hazard-proposals/{hazard_proposal_id}',
  permission: 'pre-construction-information',
  endpoints: {
    list: 'functions/cdm/hazard-proposals/list.ts',
    get: true,
    create: 'functions/cdm/hazard-proposals/create.ts',
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      ...(await hazard()),
      reason: z.string(),
      status: z.enum(PROPOSAL_STATUSES),
      ...(await decision()),
    };
  },
  relationships: {
    scheme: { type: 'schemes' },
    pre_construction_information: { type: 'pre-construction-information' },
    site_hazard: { type: 'site-hazards' },
    ...author,
    ...decider,
  },
  collection: byCreation(status, ['site_hazard']),
  // PATCH of `status` stays, an alias of the two moves (`decide.ts`).
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: PROPOSAL_STATUSES,
    noun: 'hazard proposal',
    facts: async (scope: Scope, proposal: StoredResource, principal: Principal | null): Promise<DutyFacts> =>
      (await moves()).readProposalFacts(scope, proposal, principal),
    partiesReadFacts: true,
    patchAlias: true,
    transitions: {
      // Takes no reason: an acceptance never kept one.
      accept: {
        from: ['pending'],
        to: 'accepted',
        event: 'accepted',
        parties: [theClient],
        changes: decided,
        writes: async (moved, _before, context, scope) =>
          (await moves()).acceptanceWrites(moved, context, scope),
      },
      reject: {
        from: ['pending'],
        to: 'rejected',
        event: 'rejected',
        parties: [theClient],
        input: decisionInput(PROPOSAL, 'required'),
        changes: decided,
      },
    },
  }),
});
