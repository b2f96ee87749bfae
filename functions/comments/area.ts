import { defineArea } from '#shared/engine/area';
import { comments } from './definitions';

export const area = defineArea('comments', {
  tag: 'Comments',
  feature: { description: 'Comments on records.' },
  permissions: {
    'comments:view': 'Read comments on the records of the organisation.',
    'comments:create': 'Comment on records (and delete one’s own comments).',
    'comments:moderate': 'Delete anyone’s comments.',
  },
  resources: [comments],
  routes: [],
});
