/** A body for each of the customers area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { many, one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createCustomerAccount: (i) => ({
    data: {
      type: 'customer-accounts',
      attributes: { name: 'Flat 3', kind: 'domestic', reference: `${i.reference}-ACC` },
    },
  }),
  updateCustomerAccount: (i) => ({
    data: { type: 'customer-accounts', id: i.account_id, attributes: { name: 'Flat 3A' } },
  }),
  createCustomerContact: (i) => ({
    data: {
      type: 'customer-contacts',
      attributes: {
        association: 'occupier',
        first_name: 'Sam',
        last_name: 'Okafor',
        email: 'sam@example.com',
      },
      relationships: { accounts: many('customer-accounts', [i.account_id]) },
    },
  }),
  updateCustomerContact: (i) => ({
    data: {
      type: 'customer-contacts',
      id: i.contact_id,
      attributes: { salutation: 'Mr' },
      relationships: { accounts: many('customer-accounts', [i.account_id]) },
    },
  }),
  createCustomerInteraction: (i) => ({
    data: {
      type: 'customer-interactions',
      attributes: {
        channel: 'phone',
        direction: 'inbound',
        occurred_at: '2026-11-20T10:00:00Z',
        summary: 'Road',
      },
      relationships: {
        contact: one('customer-contacts', i.contact_id),
        account: one('customer-accounts', i.account_id),
      },
    },
  }),
  updateCustomerInteraction: (i) => ({
    data: {
      type: 'customer-interactions',
      id: i.interaction_id,
      attributes: { summary: 'Asked about the road' },
      relationships: { account: one('customer-accounts', i.account_id) },
    },
  }),
  createCustomerAppointment: (i) => ({
    data: {
      type: 'customer-appointments',
      attributes: { starts_at: '2026-12-01T09:00:00Z', purpose: 'Survey', status: 'scheduled' },
      relationships: {
        contact: one('customer-contacts', i.contact_id),
        account: one('customer-accounts', i.account_id),
        assignee: one('users', i.person),
      },
    },
  }),
  updateCustomerAppointment: (i) => ({
    data: {
      type: 'customer-appointments',
      id: i.customer_appointment_id,
      attributes: { purpose: 'Site survey' },
      relationships: { assignee: one('users', i.person) },
    },
  }),
};
