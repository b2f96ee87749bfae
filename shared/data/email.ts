/**
 * Sending e-mail through SES (API v2). The SDK is loaded by the first e-mail sent, not with the module:
 * declarations that name a move which sends mail (an invitation's resend) are read by every function, and
 * only a function that sends pays for the SES SDK, once, when it does. Locally `SES_ENDPOINT` points at
 * aws-ses-v2-local, whose outbox the tests read (test/support/mailbox.ts).
 */
import { config } from '../config';

const client = async () => {
  const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
  const ses = new SESv2Client({
    region: config.AWS_REGION,
    ...(config.SES_ENDPOINT && {
      endpoint: config.SES_ENDPOINT,
      // The emulator wants a signed request but accepts any key.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
  return { ses, SendEmailCommand };
};
let loaded: ReturnType<typeof client> | undefined;

export interface Email {
  to: string;
  subject: string;
  /** The plain-text body, always sent: every mail client can show it. */
  text: string;
  html?: string;
  /** Headers beside SES's own (`List-Unsubscribe`): SESv2's `Content.Simple.Headers`. */
  headers?: Readonly<Record<string, string>>;
}

/** Sends one e-mail from `EMAIL_FROM`; resolves to SES's message id. */
export const sendEmail = async ({ to, subject, text, html, headers }: Email): Promise<string> => {
  loaded ??= client();
  const { ses, SendEmailCommand } = await loaded;
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
          ...(headers && { Headers: Object.entries(headers).map(([Name, Value]) => ({ Name, Value })) }),
        },
      },
    }),
  );
  return sent.MessageId ?? '';
};
