import { defineArea } from '#shared/engine/area';

export const area = defineArea('status', {
  tag: 'Status',
  resources: [],
  routes: [
    {
      id: 'getStatus',
      method: 'GET',
      path: '/v3/status',
      handler: 'functions/status/get-status.ts',
      answers: { status: 200, meta: true },
      auth: [],
      permission: null,
      query: [],
    },
  ],
});
