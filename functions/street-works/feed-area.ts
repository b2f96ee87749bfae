import { defineArea } from '#shared/engine/area';

/**
 * The national street-works feed's receiver, in a function of its own: its concurrency is reserved
 * (infra/stack.ts), so a burst on any other route cannot starve the feed, and the feed cannot take
 * capacity the API's routes need.
 */
export const area = defineArea('street-works-feed', {
  tag: 'Street Works',
  resources: [],
  routes: [
    {
      id: 'receiveStreetWorksProtection',
      method: 'POST',
      path: '/street-works/protections',
      handler: 'functions/street-works/receive-protection.ts',
      answers: { status: 200, resource: 'street-works-protections', meta: true },
      auth: [],
      permission: null,
      access: { table: 'write', sns: 'confirm' },
      bodyType: 'text',
    },
  ],
});
