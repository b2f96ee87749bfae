import { defineArea } from '../area';
import { permits, protections, streetWorks } from './definitions';

export const area = defineArea('street-works', {
  resources: [permits, streetWorks, protections],
  routes: [
    {
      id: 'receiveStreetWorksProtection',
      method: 'POST',
      path: '/street-works/protections',
      handler: 'functions/street-works/receive-protection.ts',
      auth: [],
      permission: null,
      access: { table: 'write', sns: 'confirm' },
      bodyType: 'text',
    },
  ],
});
