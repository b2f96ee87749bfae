import { defineArea } from '#shared/engine/area';
import {
  customerAccounts,
  customerAppointments,
  customerContacts,
  customerInteractions,
} from './definitions';

export const area = defineArea('customers', {
  tag: 'Contacts',
  examples: 'functions/customers/examples.ts',
  resources: [customerContacts, customerAccounts, customerInteractions, customerAppointments],
  routes: [],
});
