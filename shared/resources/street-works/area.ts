import { defineArea } from '../area';
import { permits, protections, streetWorks } from './definitions';

export const area = defineArea('street-works', {
  tag: 'Street Works',
  resources: [permits, streetWorks, protections],
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
