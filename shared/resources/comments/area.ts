import { defineArea } from '../area';
import { comments } from './definitions';

export const area = defineArea('comments', {
  resources: [comments],
  routes: [],
});
