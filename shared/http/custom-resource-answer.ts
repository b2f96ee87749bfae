/**
 * The answer a CloudFormation custom resource's own function sends (the migration runner, the token
 * key reader: no framework function of CDK's joins the stack), at the presigned URL its event carries.
 * CloudFormation waits for it, so a handler answers on every path, failures included.
 */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

export interface CustomResourceAnswer {
  status: 'SUCCESS' | 'FAILED';
  /** Shown to the operator in the stack's events (CloudFormation keeps its first kilobyte or so). */
  reason: string;
  physicalResourceId: string;
  /** What `Fn::GetAtt` on the resource reads. */
  data?: Record<string, string>;
}

export const answerCustomResource = async (
  event: CloudFormationCustomResourceEvent,
  { status, reason, physicalResourceId, data }: CustomResourceAnswer,
): Promise<void> => {
  const response = await fetch(event.ResponseURL, {
    method: 'PUT',
    // The URL is presigned without a content type: any other would break its signature.
    headers: { 'content-type': '' },
    body: JSON.stringify({
      Status: status,
      Reason: reason.slice(0, 1000),
      PhysicalResourceId: physicalResourceId,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
      ...(data && { Data: data }),
    }),
  });
  if (!response.ok) throw new Error(`CloudFormation refused the answer: ${response.status}`);
};
