/**
 * Customers: contacts (the spec's Customer contact table), the accounts they belong to, the interactions
 * had with them and the appointments made with them. A contact lists its interactions (kept as they are
 * created and deleted), so `include=interactions` is one read.
 */
import type { StoredResource } from '#shared/data/stored-resource';
import { authored, listedOn } from '#shared/engine/moments';
import { CRUD, defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';

const author = { author: { type: 'users' }, author_service_account: { type: 'service-accounts' } } as const;

/** `meta.modified_at` is the time of the last change, as the spec's contact table shows it. */
const withModifiedAt = async (_scope: unknown, items: StoredResource[]) =>
  items.map((item) => ({ ...item, meta: { ...item.meta, modified_at: item.meta.updated_at } }));

// Functions of the builders, loaded when the writes that call them run: a read loads no zod.
const name = ({ requiredLine }: SchemaBuilders) => requiredLine(100);
const text = ({ line }: SchemaBuilders, max: number) => line(max).trim().optional();

export const customerContacts = defineResource({
  type: 'customer-contacts',
  names: { one: 'CustomerContact', many: 'CustomerContacts' },
  collectionPath: '/v3/orgs/{org_id}/customers/contacts',
  itemPath: '/v3/orgs/{org_id}/customers/contacts/{contact_id}',
  permission: 'customers',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { z, email } = builders;
    return {
      attributes: {
        association: z.enum(['occupier', 'owner', 'tenant', 'landlord', 'agent', 'other']),
        salutation: z.enum(['Mr', 'Mrs', 'Ms', 'Miss', 'Mx', 'Dr', 'Prof']).optional(),
        first_name: name(builders),
        last_name: name(builders),
        email: email().optional(),
        telephone: z
          .string()
          .regex(
            /^\+?[0-9 ()-]{6,20}$/,
            'telephone must be digits, spaces, brackets or dashes, optionally after +',
          )
          .optional(),
      },
      relationships: ['accounts'],
      prepare: authored,
    };
  },
  relationships: {
    accounts: { type: 'customer-accounts', many: true },
    interactions: { type: 'customer-interactions', many: true },
    ...author,
  },
  derive: withModifiedAt,
  // On gsi2: lsi1 and lsi2 keep the last name and e-mail sorts.
  keys: {
    'filter-association': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#customer-contacts',
      sk: 'association#{attributes.association}#{attributes.last_name:folded}\u0001{id}',
      about:
        "a contact under its association, in last-name order (the list's default sort): `filter[association]`; contacts written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // Every filter indexed: e-mail and last name where their sorts read them, association (six values,
    // counted) on gsi2.
    filters: {
      email: { kind: 'eq', path: 'attributes.email', index: 'sort-email' },
      association: { kind: 'eq', path: 'attributes.association', index: 'filter-association', counted: true },
      last_name: { kind: 'eq', path: 'attributes.last_name', index: 'sort-last_name' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: {
      last_name: { path: 'attributes.last_name', index: 'lsi1' },
      email: { path: 'attributes.email', index: 'lsi2' },
    },
    defaultSort: 'last_name',
    includes: ['author', 'accounts', 'interactions', 'organisation'],
  },
});

export const customerAccounts = defineResource({
  type: 'customer-accounts',
  tag: 'Customer Accounts',
  names: { one: 'CustomerAccount', many: 'CustomerAccounts' },
  collectionPath: '/v3/orgs/{org_id}/customers/accounts',
  itemPath: '/v3/orgs/{org_id}/customers/accounts/{account_id}',
  permission: 'customers',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { z, requiredLine } = builders;
    return {
      attributes: {
        name: requiredLine(200),
        reference: text(builders, 50),
        kind: z.enum(['domestic', 'commercial', 'public']),
      },
      prepare: authored,
    };
  },
  relationships: { ...author },
  // Each kept in name order (the list's sort): lsi1 holds the sort, so kind takes lsi2 and reference gsi2.
  keys: {
    'filter-kind': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#customer-accounts',
      sk: 'kind#{attributes.kind}#{attributes.name:folded}\u0001{id}',
      about:
        "an account under its kind, in name order (the list's sort): `filter[kind]`; accounts written before issue 42 lack it until migrated",
    },
    'filter-reference': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#customer-accounts',
      sk: 'reference#{attributes.reference}#{attributes.name:folded}\u0001{id}',
      about:
        'an account under its reference, in name order: `filter[reference]`; accounts written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // Every filter indexed: reference and kind (three values, counted) on their entries, a creation window
    // on the ids.
    filters: {
      reference: { kind: 'eq', path: 'attributes.reference', index: 'filter-reference' },
      kind: { kind: 'eq', path: 'attributes.kind', index: 'filter-kind', counted: true },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
});

export const customerInteractions = defineResource({
  type: 'customer-interactions',
  tag: 'Customer Interactions',
  names: { one: 'CustomerInteraction', many: 'CustomerInteractions' },
  collectionPath: '/v3/orgs/{org_id}/customers/interactions',
  itemPath: '/v3/orgs/{org_id}/customers/interactions/{interaction_id}',
  permission: 'customers',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { z, requiredText, timestamp } = builders;
    return {
      attributes: {
        channel: z.enum(['phone', 'email', 'visit', 'letter', 'sms', 'other']),
        direction: z.enum(['inbound', 'outbound']),
        occurred_at: timestamp,
        summary: requiredText(5000),
        outcome: text(builders, 2000),
      },
      relationships: ['contact', 'account'],
      prepare: authored,
      keep: listedOn('contact', 'interactions'),
    };
  },
  relationships: {
    contact: { type: 'customer-contacts' },
    account: { type: 'customer-accounts' },
    ...author,
  },
  // Each entry in the order of the list's one sort (`occurred_at`), so a filtered page reads what it returns.
  keys: {
    'filter-channel': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#customer-interactions',
      sk: 'channel#{attributes.channel}#{attributes.occurred_at:folded}#{id}',
      about:
        'an interaction under its channel, in the order it occurred: `filter[channel]`; interactions written before issue 42 lack it until migrated',
    },
    'filter-contact': {
      index: 'gsi2',
      pk: 'CUSTOMER-INTERACTIONS#{org_id}#{rels.contact}',
      sk: '{attributes.occurred_at:folded}#{id}',
      about:
        "a contact's interaction, in the order it occurred: `filter[contact]`; interactions written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // Five hundred a site a year: every filter is indexed, `channel` (six values) counted.
    filters: {
      created_at: false,
      contact: { kind: 'eq', path: 'rels.contact', index: 'filter-contact' },
      channel: { kind: 'eq', path: 'attributes.channel', index: 'filter-channel', counted: true },
      occurred_at: { kind: 'time', path: 'attributes.occurred_at', index: 'sort-occurred_at' },
    },
    sorts: { occurred_at: { path: 'attributes.occurred_at', index: 'lsi1' } },
    defaultSort: '-occurred_at',
    includes: ['contact', 'account', 'author'],
  },
});

export const customerAppointments = defineResource({
  type: 'customer-appointments',
  tag: 'Customer Appointments',
  names: { one: 'CustomerAppointment', many: 'CustomerAppointments' },
  collectionPath: '/v3/orgs/{org_id}/customers/appointments',
  itemPath: '/v3/orgs/{org_id}/customers/appointments/{appointment_id}',
  permission: 'customers',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { z, requiredText, timestamp } = builders;
    return {
      attributes: {
        starts_at: timestamp,
        ends_at: timestamp.optional(),
        purpose: requiredText(500),
        location: text(builders, 500),
        status: z.enum(['scheduled', 'completed', 'cancelled', 'no_show']),
      },
      relationships: ['contact', 'account', 'assignee'],
      prepare: authored,
    };
  },
  relationships: {
    contact: { type: 'customer-contacts' },
    account: { type: 'customer-accounts' },
    assignee: { type: 'users' },
    ...author,
  },
  // Each entry in the order of the list's one sort (`starts_at`), so a filtered page reads what it returns.
  keys: {
    'filter-status': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#customer-appointments',
      sk: 'status#{attributes.status}#{attributes.starts_at:folded}#{id}',
      about:
        'an appointment under its status, in the order they start: `filter[status]`; appointments written before issue 42 lack it until migrated',
    },
    'filter-contact': {
      index: 'gsi2',
      pk: 'CUSTOMER-APPOINTMENTS#{org_id}#{rels.contact}',
      sk: '{attributes.starts_at:folded}#{id}',
      about:
        "a contact's appointment, in the order they start: `filter[contact]`; appointments written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // A hundred a site a year: every filter is indexed, `status` (four values) counted.
    filters: {
      created_at: false,
      contact: { kind: 'eq', path: 'rels.contact', index: 'filter-contact' },
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      starts_at: { kind: 'time', path: 'attributes.starts_at', index: 'sort-starts_at' },
    },
    sorts: { starts_at: { path: 'attributes.starts_at', index: 'lsi1' } },
    defaultSort: 'starts_at',
    includes: ['contact', 'account', 'assignee'],
  },
});
