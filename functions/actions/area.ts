import { defineArea } from '#shared/engine/area';
import { actionTypes } from './action-types';
import { actions } from './definitions';

export const area = defineArea('actions', {
  tag: 'Actions',
  feature: { description: 'Actions: follow-ups assigned to people and teams, and their types.' },
  permissions: {
    'actions:view': 'See the organisation’s actions.',
    'actions:manage':
      'Create, change, assign, cancel, reopen and delete actions, verify completed ones, and make any action’s moves.',
    'actions:self':
      'Read the actions one is party to (assigned, claimed, on the assigned team or watching) and make the assignee’s moves on them.',
    'action-types:view': 'See the organisation’s action types.',
    'action-types:manage':
      'Create, change and delete action types: their custom fields, defaults, moves and evidence.',
  },
  resources: [actionTypes, actions],
  // Which of its events notify whom by default (organisations override them per rule id): the assigned user
  // as it is raised or reassigned to them, whoever created it on its completion.
  notificationRules: [
    {
      id: 'action-raised',
      event: 'action.created',
      category: 'actions',
      severity: 'info',
      recipients: [{ relationship: 'assignee' }],
      title: 'Action for you',
      body: '{attributes.title}',
      generic: { title: 'Action raised', body: 'An action was raised for you.' },
    },
    {
      id: 'action-assigned',
      event: 'action.assigned',
      category: 'actions',
      severity: 'info',
      recipients: [{ relationship: 'assignee' }],
      title: 'Action assigned to you',
      body: '{attributes.title}',
      generic: { title: 'Action assigned', body: 'An action was assigned to you.' },
    },
    {
      id: 'action-completed',
      event: 'action.completed',
      category: 'actions',
      severity: 'info',
      recipients: [{ relationship: 'created_by_user' }],
      title: 'Action completed',
      body: '{attributes.title}',
      generic: { title: 'Action completed', body: 'An action you raised was completed.' },
    },
  ],
  routes: [],
});
