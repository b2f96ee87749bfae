/** A body for each of the actions area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { one, type RequestExamples } from '#shared/engine/examples';

const reason = (text: string) => () => ({ data: { type: 'actions', attributes: { reason: text } } });

export const examples: RequestExamples = {
  createActionType: () => ({
    data: {
      type: 'action-types',
      attributes: {
        name: 'Defect repair',
        custom_fields: {
          type: 'object',
          properties: { depth_mm: { type: 'integer', title: 'Depth (mm)', minimum: 0 } },
          required: ['depth_mm'],
        },
        default_priority: 'high',
        due_period: 'P7D',
        moves: { complete: { evidence: ['comment'] } },
        verification_required: true,
      },
    },
  }),
  updateActionType: (i) => ({
    data: { type: 'action-types', id: i.action_type_id, attributes: { due_period: 'P3D' } },
  }),
  createAction: (i) => ({
    data: {
      type: 'actions',
      attributes: { title: 'Replace the cracked kerb stone', custom_fields: { depth_mm: 40 } },
      relationships: {
        action_type: one('action-types', i.action_type_id),
        assignee: one('users', i.person),
        subject: one('locations', i.location_id),
      },
    },
  }),
  updateAction: (i) => ({
    data: { type: 'actions', id: i.action_id, attributes: { priority: 'critical' } },
  }),
  startAction: null,
  blockAction: reason('Waiting for the road closure.'),
  unblockAction: null,
  completeAction: null,
  requestVerificationAction: null,
  verifyAction: null,
  sendBackAction: reason('The stone is loose.'),
  cantDoAction: reason('The site is closed.'),
  cancelAction: reason('Raised twice.'),
  reopenAction: reason('It cracked again.'),
  claimAction: null,
  releaseAction: null,
  reassignAction: (i) => ({
    data: { type: 'actions', relationships: { assignee: one('teams', i.team_id) } },
  }),
};
