import { defineArea } from '../area';

export const area = defineArea('status', {
  resources: [],
  routes: [
    {
      id: 'getStatus',
      method: 'GET',
      path: '/v3/status',
      handler: 'functions/status/get-status.ts',
      auth: [],
      permission: null,
      query: [],
    },
  ],
});
