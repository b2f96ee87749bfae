/**
 * What the street-works tests need to play Amazon SNS on loopback: a certificate authority and a signing
 * certificate generated for the run, a server handing out that certificate at the configured base URL,
 * an SNS API endpoint that records ConfirmSubscription calls, and a signer that follows AWS's documented
 * field order independently of the service's own code.
 */
import { createPrivateKey, createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import forge from 'node-forge';

const certificate = (
  subject: string,
  publicPem: string,
  issuer: { name: string; privatePem: string },
  serial: string,
) => {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 24 * 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setIssuer([{ name: 'commonName', value: issuer.name }]);
  cert.sign(forge.pki.privateKeyFromPem(issuer.privatePem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
};

const rsa = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });

/** A test CA, and a signing certificate for `sns.amazonaws.com` issued by it; another key signs nothing valid. */
export const testAuthority = () => {
  const ca = rsa();
  const signer = rsa();
  const caName = 'Test SNS Certificate Authority';
  return {
    caPem: certificate(caName, ca.publicKey, { name: caName, privatePem: ca.privateKey }, '01'),
    signingPem: certificate(
      'sns.amazonaws.com',
      signer.publicKey,
      { name: caName, privatePem: ca.privateKey },
      '02',
    ),
    signingKey: createPrivateKey(signer.privateKey),
    otherKey: createPrivateKey(rsa().privateKey),
  };
};

/** The signed fields of each message type, in the order AWS documents them. */
const SIGNED = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
} as const;

export type Fields = Record<string, unknown> & { Type: keyof typeof SIGNED };

export const sign = <F extends Fields>(
  fields: F,
  key: ReturnType<typeof createPrivateKey>,
  version: '1' | '2' = '2',
): F & { SignatureVersion: string; Signature: string } => {
  const text = SIGNED[fields.Type]
    .filter((name) => fields[name] !== undefined)
    .map((name) => `${name}\n${String(fields[name])}\n`)
    .join('');
  const signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
    .update(text, 'utf8')
    .sign(key, 'base64');
  return { ...fields, SignatureVersion: version, Signature: signature };
};

/** The one certificate file name the loopback server has; any other is 404. */
export const CERTIFICATE_SERIAL = '0123456789abcdef';

export interface LoopbackSns {
  /** Certificate fetches by path. */
  certificateFetches: string[];
  /** ConfirmSubscription calls, as the form fields SNS's query protocol sends. */
  confirmations: Record<string, string>[];
  close(): Promise<void>;
}

const listen = (server: Server, port: number) =>
  new Promise<void>((done) => server.listen(port, '127.0.0.1', () => done()));

/** Serves `pem` under the configured certificate base and answers ConfirmSubscription on the SNS port. */
export const startLoopbackSns = async (
  pem: string,
  certPort: number,
  snsPort: number,
): Promise<LoopbackSns> => {
  const certificateFetches: string[] = [];
  const confirmations: Record<string, string>[] = [];
  const certs = createServer((req, res) => {
    certificateFetches.push(req.url ?? '');
    if (!(req.url ?? '').endsWith(`/SimpleNotificationService-${CERTIFICATE_SERIAL}.pem`)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(pem);
  });
  const api = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      confirmations.push({ ...form, authorization: String(req.headers.authorization ?? '') });
      const arn = `${form.TopicArn}:${randomUUID()}`;
      res
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          `<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ConfirmSubscriptionResult><SubscriptionArn>${arn}</SubscriptionArn></ConfirmSubscriptionResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></ConfirmSubscriptionResponse>`,
        );
    });
  });
  await Promise.all([listen(certs, certPort), listen(api, snsPort)]);
  const close = (s: Server) =>
    new Promise<void>((done) => {
      s.closeAllConnections();
      s.close(() => done());
    });
  return {
    certificateFetches,
    confirmations,
    close: async () => void (await Promise.all([close(certs), close(api)])),
  };
};
