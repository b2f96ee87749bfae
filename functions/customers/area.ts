import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
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
  migrations: [
    migration(25, 'customer-filter-index', {
      module: 'functions/customers/migrations/customer-filter-index.ts',
      step: 'customerFilterIndex',
    }),
    migration(31, 'contact-filter-index', {
      module: 'functions/customers/migrations/contact-filter-index.ts',
      step: 'contactFilterIndex',
    }),
    migration(35, 'account-filter-index', {
      module: 'functions/customers/migrations/account-filter-index.ts',
      step: 'accountFilterIndex',
    }),
  ],
  resources: [customerContacts, customerAccounts, customerInteractions, customerAppointments],
  routes: [],
});
