/**
 * Customers: contacts (the spec's Customer contact table), the accounts they belong to, the interactions
 * had with them and the appointments made with them. A contact lists its interactions (kept as they are
 * created and deleted), so `include=interactions` is one read.
 */
import type { StoredResource } from '../../data/stored-resource';
import { createdAtSort, defineResource } from '../resource-definition';

const author = { author: { type: 'users' }, author_service_account: { type: 'service-accounts' } } as const;

/** `meta.modified_at` is the time of the last change, as the spec's contact table shows it. */
const withModifiedAt = async (_scope: unknown, items: StoredResource[]) =>
  items.map((item) => ({ ...item, meta: { ...item.meta, modified_at: item.meta.updated_at } }));

export const customerContacts = defineResource({
  type: 'customer-contacts',
  relationships: {
    organisation: { type: 'organisations' },
    accounts: { type: 'customer-accounts', many: true },
    interactions: { type: 'customer-interactions', many: true },
    ...author,
  },
  self: 'getCustomerContact',
  derive: withModifiedAt,
  collection: {
    filters: {
      email: { kind: 'eq', path: 'attributes.email' },
      association: { kind: 'eq', path: 'attributes.association' },
      last_name: { kind: 'eq', path: 'attributes.last_name' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: {
      last_name: { path: 'attributes.last_name', index: 'lsi1' },
      email: { path: 'attributes.email', index: 'lsi2' },
      ...createdAtSort,
    },
    defaultSort: 'last_name',
    includes: ['author', 'accounts', 'interactions', 'organisation'],
  },
});

export const customerAccounts = defineResource({
  type: 'customer-accounts',
  relationships: { organisation: { type: 'organisations' }, ...author },
  self: 'getCustomerAccount',
  collection: {
    filters: {
      reference: { kind: 'eq', path: 'attributes.reference' },
      kind: { kind: 'eq', path: 'attributes.kind' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: [],
  },
});

export const customerInteractions = defineResource({
  type: 'customer-interactions',
  relationships: {
    organisation: { type: 'organisations' },
    contact: { type: 'customer-contacts' },
    account: { type: 'customer-accounts' },
    ...author,
  },
  self: 'getCustomerInteraction',
  collection: {
    filters: {
      contact: { kind: 'eq', path: 'rels.contact' },
      channel: { kind: 'eq', path: 'attributes.channel' },
      occurred_at: { kind: 'time', path: 'attributes.occurred_at' },
    },
    sorts: { occurred_at: { path: 'attributes.occurred_at', index: 'lsi1' }, ...createdAtSort },
    defaultSort: '-occurred_at',
    includes: ['contact', 'account', 'author'],
  },
});

export const customerAppointments = defineResource({
  type: 'customer-appointments',
  relationships: {
    organisation: { type: 'organisations' },
    contact: { type: 'customer-contacts' },
    account: { type: 'customer-accounts' },
    assignee: { type: 'users' },
    ...author,
  },
  self: 'getCustomerAppointment',
  collection: {
    filters: {
      contact: { kind: 'eq', path: 'rels.contact' },
      status: { kind: 'eq', path: 'attributes.status' },
      starts_at: { kind: 'time', path: 'attributes.starts_at' },
    },
    sorts: { starts_at: { path: 'attributes.starts_at', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'starts_at',
    includes: ['contact', 'account', 'assignee'],
  },
});
