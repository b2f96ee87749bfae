/**
 * The outbox of the local SES (aws-ses-v2-local, started by the global setup): every mail the service
 * sent during the run, from every test file. Tests find theirs by recipient, each using addresses of its
 * own, and pull links or tokens out of the text.
 */
import { inject } from 'vitest';

export interface Mail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  /** The headers the sender named beside SES's own (`List-Unsubscribe`), absent when none. */
  headers?: { name: string; value: string }[];
  /** When SES received it, in seconds since the epoch. */
  at: number;
}

/** Every mail sent so far, oldest first. */
export const outbox = async (): Promise<Mail[]> => {
  const response = await fetch(`${inject('sesEndpoint')}/store`);
  if (!response.ok) throw new Error(`the SES outbox: ${response.status}`);
  return ((await response.json()) as { emails: Mail[] }).emails;
};

/** The address alone, from `Name <address>` or `address`. */
const bare = (recipient: string) => (/<([^>]+)>/.exec(recipient)?.[1] ?? recipient).trim().toLowerCase();

/** The mails addressed to `address` (To, Cc or Bcc), oldest first. */
export const mailsTo = async (address: string): Promise<Mail[]> => {
  const wanted = bare(address);
  return (await outbox()).filter(({ destination: { to, cc, bcc } }) =>
    [...to, ...cc, ...bcc].some((recipient) => bare(recipient) === wanted),
  );
};

/** The http(s) links in a mail's text. */
export const linksIn = (mail: Mail): string[] => mail.body.text?.match(/https?:\/\/[^\s<>"]+/g) ?? [];

/** A header the sender named, by name (case-insensitive), or undefined. */
export const headerOf = (mail: Mail, name: string): string | undefined =>
  mail.headers?.find((header) => header.name.toLowerCase() === name.toLowerCase())?.value;
