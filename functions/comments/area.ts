import { defineArea } from '#shared/engine/area';
import { comments } from './definitions';

export const area = defineArea('comments', {
  tag: 'Comments',
  examples: 'functions/comments/examples.ts',
  resources: [comments],
  routes: [],
});
