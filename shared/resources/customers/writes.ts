/** The customer records' schemas; each is plain create/update/delete beyond what it names. */
import * as z from 'zod';
import { email, line, requiredLine, requiredText, timestamp } from '../../jsonapi/attribute-types';
import { simpleCrud } from '../simple-crud';
import {
  customerAccounts,
  customerAppointments,
  customerContacts,
  customerInteractions,
} from './definitions';

const name = z.lazy(() => requiredLine(100));
const text = (max: number) => line(max).trim().optional();

export const contactCrud = simpleCrud(
  customerContacts,
  {
    association: z.enum(['occupier', 'owner', 'tenant', 'landlord', 'agent', 'other']),
    salutation: z.enum(['Mr', 'Mrs', 'Ms', 'Miss', 'Mx', 'Dr', 'Prof']).optional(),
    first_name: name,
    last_name: name,
    email: email().optional(),
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
    name: requiredLine(200),
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
    summary: requiredText(5000),
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
    purpose: requiredText(500),
    location: text(500),
    status: z.enum(['scheduled', 'completed', 'cancelled', 'no_show']),
  },
  ['contact', 'account', 'assignee'],
  undefined,
  { author: true },
);
