/**
 * E-mail leaves through SES's v2 API (shared/data/email.ts); locally that is aws-ses-v2-local, whose
 * outbox the tests read (test/support/mailbox.ts).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sendEmail } from '#shared/data/email';
import { linksIn, mailsTo } from '../support/mailbox';

describe('sendEmail', () => {
  it('sends from EMAIL_FROM to the address given, with subject, text and HTML, and the outbox shows it', async () => {
    const to = `invitee.${randomUUID()}@kestrel-civils.example`;
    const link = `http://127.0.0.1:3000/v3/invitations/${randomUUID()}/accept?token=abc123`;
    const messageId = await sendEmail({
      to,
      subject: 'You are invited to Kestrel Civil Engineering',
      text: `Accept the invitation: ${link}\n`,
      html: `<p><a href="${link}">Accept the invitation</a></p>`,
    });
    const mails = await mailsTo(to);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({
      messageId,
      from: 'no-reply@compliance.local',
      destination: { to: [to] },
      subject: 'You are invited to Kestrel Civil Engineering',
      body: { html: `<p><a href="${link}">Accept the invitation</a></p>` },
    });
    expect(mail && linksIn(mail)).toEqual([link]);
  });

  it('sends a text-only mail without an HTML part', async () => {
    const to = `plain.${randomUUID()}@northmere-water.example`;
    await sendEmail({ to, subject: 'Plain', text: 'Nothing but text.' });
    const [mail] = await mailsTo(to);
    expect(mail?.body.text?.trim()).toBe('Nothing but text.');
    expect(mail?.body.html).toBeUndefined();
  });
});
