/**
 * Sending e-mail through SES (API v2). The client lives in this module rather than in `clients.ts`, which
 * every function loads: only the routes that send mail (invitations) pay for the SES SDK in their bundle
 * and cold start, as `s3.ts` does for S3. Locally `SES_ENDPOINT` points at aws-ses-v2-local, whose outbox
 * the tests read (test/support/mailbox.ts).
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from '../config';

const ses = new SESv2Client({
  region: config.AWS_REGION,
  ...(config.SES_ENDPOINT && {
    endpoint: config.SES_ENDPOINT,
    // The emulator wants a signed request but accepts any key.
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
});

export interface Email {
  to: string;
  subject: string;
  /** The plain-text body, always sent: every mail client can show it. */
  text: string;
  html?: string;
}

/** Sends one e-mail from `EMAIL_FROM`; resolves to SES's message id. */
export const sendEmail = async ({ to, subject, text, html }: Email): Promise<string> => {
  const sent = await ses.send(
    new SendEmailCommand({
      FromEmailAddress: config.EMAIL_FROM,
      Destination: { ToAddresses: [to] },
      Content: {
        Simple: {
          Subject: { Data: subject, Charset: 'UTF-8' },
          Body: {
            Text: { Data: text, Charset: 'UTF-8' },
            ...(html !== undefined && { Html: { Data: html, Charset: 'UTF-8' } }),
          },
        },
      },
    }),
  );
  return sent.MessageId ?? '';
};
