/**
 * The demo organisation's actions, through the same write functions the API calls: a type whose
 * completion needs a comment as evidence and someone else's verification, and three actions of it: one
 * assigned to the lead's team (to claim), one to a person, and one overdue.
 */
import { actionTypes } from '#functions/actions/action-types';
import { createAction } from '#functions/actions/action-writes';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { declaredCrud } from '#shared/engine/simple-crud';

const DAY = 86_400_000;

export const loadDemoActions = async (orgId: string, people: readonly StoredResource[], team: string) => {
  const scope = scopeOf([orgId]);
  const type = await (await declaredCrud(actionTypes)).create(scope, orgId, {
    data: {
      type: 'action-types',
      attributes: {
        name: 'Guard rail repair',
        custom_fields: {
          type: 'object',
          properties: { length_m: { type: 'number', title: 'Length (m)', minimum: 0 } },
        },
        default_priority: 'high',
        due_period: 'P7D',
        moves: {
          complete: { evidence: ['comment'] },
          'request-verification': { evidence: ['comment'] },
        },
        verification_required: true,
      },
    },
  });
  const action = (title: string, assignee: { type: string; id: string } | null, dueAt?: string) =>
    createAction(
      scope,
      orgId,
      {
        data: {
          type: 'actions',
          attributes: { title, custom_fields: { length_m: 4 }, ...(dueAt && { due_at: dueAt }) },
          relationships: {
            action_type: { data: { type: 'action-types', id: type.id } },
            ...(assignee && { assignee: { data: assignee } }),
          },
        },
      },
      null,
    );
  const [, person] = people;
  await action('Replace the bent guard rail at the depot gate', { type: 'teams', id: team });
  if (person) await action('Bolt down the loose rail on the ramp', { type: 'users', id: person.id });
  await action(
    'Repaint the crash barrier by the weighbridge',
    null,
    new Date(Date.now() - 2 * DAY).toISOString(),
  );
};
