/** The customer records' schemas; each is plain create/update/delete beyond what it names. */
import * as z from 'zod';
import { timestamp } from '../../jsonapi/request-document';
import { simpleCrud } from '../simple-crud';
import {
  customerAccounts,
  customerAppointments,
  customerContacts,
  customerInteractions,
} from './definitions';

const name = z.string().trim().min(1).max(100);
const text = (max: number) => z.string().trim().max(max).optional();

export const contactCrud = simpleCrud(
  customerContacts,
  {
    association: z.enum(['occupier', 'owner', 'tenant', 'landlord', 'agent', 'other']),
    salutation: z.enum(['Mr', 'Mrs', 'Ms', 'Miss', 'Mx', 'Dr', 'Prof']).optional(),
    first_name: name,
    last_name: name,
    email: z.email().max(254).optional(),
    telephone: z
      .string()
      .regex(
        /^\+?[0-9 ()-]{6,20}$/,
        'telephone must be digits, spaces, brackets or dashes, optionally after +',
      )
      .optional(),
  },
  ['accounts'],
  undefined,
  { author: true },
);

export const accountCrud = simpleCrud(
  customerAccounts,
  {
    name: z.string().trim().min(1).max(200),
    reference: text(50),
    kind: z.enum(['domestic', 'commercial', 'public']),
  },
  [],
  undefined,
  { author: true },
);

export const interactionCrud = simpleCrud(
  customerInteractions,
  {
    channel: z.enum(['phone', 'email', 'visit', 'letter', 'sms', 'other']),
    direction: z.enum(['inbound', 'outbound']),
    occurred_at: timestamp,
    summary: z.string().trim().min(1).max(5000),
    outcome: text(2000),
  },
  ['contact', 'account'],
  undefined,
  { author: true, listedOn: { relationship: 'contact', as: 'interactions' } },
);

export const appointmentCrud = simpleCrud(
  customerAppointments,
  {
    starts_at: timestamp,
    ends_at: timestamp.optional(),
    purpose: z.string().trim().min(1).max(500),
    location: text(500),
    status: z.enum(['scheduled', 'completed', 'cancelled', 'no_show']),
  },
  ['contact', 'account', 'assignee'],
  undefined,
  { author: true },
);
