import { defineArea } from '#shared/engine/area';
import {
  customerAccounts,
  customerAppointments,
  customerContacts,
  customerInteractions,
} from './definitions';

export const area = defineArea('customers', {
  tag: 'Contacts',
  feature: { description: 'Customer accounts, contacts and interactions.' },
  permissions: {
    'customers:view': 'See customer contacts, accounts, interactions and appointments.',
    'customers:manage':
      'Create, change and delete customer contacts, accounts, interactions and appointments.',
  },
  resources: [customerContacts, customerAccounts, customerInteractions, customerAppointments],
  routes: [],
});
