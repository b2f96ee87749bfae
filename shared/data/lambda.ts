/**
 * Asynchronous invocations of the stack's worker functions (the job worker): Lambda's `Event` invocation
 * type, so the caller never waits for the work. Locally the endpoint is the loopback one `npm start` and
 * the tests run (`infra/local/lambda-endpoint.ts`), which starts the same module in a child process.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { config } from '../config';

const lambda = new LambdaClient({
  region: config.AWS_REGION,
  ...(config.LAMBDA_ENDPOINT && {
    endpoint: config.LAMBDA_ENDPOINT,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
});

/** Queues one invocation of `functionName` with `payload`; resolves once Lambda has accepted it. */
export const invokeAsync = async (functionName: string, payload: object): Promise<void> => {
  const out = await lambda.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'Event',
      Payload: Buffer.from(JSON.stringify(payload)),
    }),
  );
  if (out.StatusCode !== 202) throw new Error(`${functionName} refused the invocation (${out.StatusCode})`);
};
