/**
 * The SNS API, for the one call the service makes: confirming a street-works subscription. The client
 * is built per region (a topic's region decides where it is confirmed) and kept for the process.
 */
import { ConfirmSubscriptionCommand, SNSClient } from '@aws-sdk/client-sns';
import { config } from '../config';

const clients = new Map<string, SNSClient>();

const clientFor = (region: string): SNSClient => {
  let client = clients.get(region);
  if (!client) {
    client = new SNSClient({
      region,
      ...(config.SNS_ENDPOINT && {
        endpoint: config.SNS_ENDPOINT,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    });
    clients.set(region, client);
  }
  return client;
};

/**
 * ConfirmSubscription with `AuthenticateOnUnsubscribe`, so only an authenticated caller (the topic's
 * owner) can unsubscribe the endpoint: the UnsubscribeURL each notification carries is then useless to a
 * stranger. Returns the subscription ARN.
 */
export const confirmSubscription = async (
  region: string,
  topicArn: string,
  token: string,
): Promise<string> => {
  const out = await clientFor(region).send(
    new ConfirmSubscriptionCommand({ TopicArn: topicArn, Token: token, AuthenticateOnUnsubscribe: 'true' }),
  );
  return out.SubscriptionArn ?? '';
};
