/**
 * What tells an operator the service is failing (issue 20, item 3): one SNS topic every alarm notifies
 * (e-mailed when the stage names an address), the alarms, and one CloudWatch dashboard per stage.
 *
 * Alarms: the share of requests answered 5xx; each function's errors and throttles; the table's throttled
 * requests; the service's own metrics (street-works unsubscribe and rejected deliveries, failing webhook
 * subscriptions), written by the functions through Powertools' embedded metric format with the
 * dimensions `service` and `Stage`; and any alarm the stack adds with `alarm()` (dead letters, a consumer
 * falling behind).
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '#shared/http/log';
import { METRIC_NAMESPACE } from '#shared/http/metrics';
import type { Operations, Stage } from '../operations';

const FIVE_MINUTES = Duration.minutes(5);

export interface MonitoringProps {
  stage: Stage;
  operations: Operations;
  api: HttpApi;
  table: Table;
}

/** The service's own metrics, as `shared/http/log.ts`'s `metric()` writes them. */
export const SERVICE_METRICS = {
  StreetWorksUnsubscribed: 'A street-works SNS topic unsubscribed the receiver: permits stop arriving.',
  StreetWorksRejected:
    'Messages to the street-works receiver refused (signature, topic or replay window): a misconfigured or forged sender.',
  WebhookSubscriptionFailing:
    'A webhook subscription ran out of retries and is failing: its client receives no events until it is changed.',
} as const;

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  private readonly stage: Stage;

  constructor(scope: Construct, id: string, { stage, operations, api, table }: MonitoringProps) {
    super(scope, id);
    this.stage = stage;
    this.topic = new Topic(this, 'Alarms', {
      displayName: `Compliance API alarms (${stage})`,
      enforceSSL: true,
    });
    if (operations.alarmEmail) this.topic.addSubscription(new EmailSubscription(operations.alarmEmail));
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `ComplianceApi-${stage}`,
      defaultInterval: Duration.hours(3),
    });

    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrorPercent = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      label: '5xx, % of requests',
      period: FIVE_MINUTES,
    });
    this.alarm('ApiServerErrorsAlarm', {
      alarmDescription: `More than ${operations.serverErrorAlarmPercent} % of requests answered 5xx over 5 minutes.`,
      metric: serverErrorPercent,
      threshold: operations.serverErrorAlarmPercent,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    // The operations the service uses (an alarm's expression takes at most 10 metrics; it never scans).
    const throttled = table.metricThrottledRequestsForOperations({
      operations: [
        Operation.GET_ITEM,
        Operation.BATCH_GET_ITEM,
        Operation.QUERY,
        Operation.PUT_ITEM,
        Operation.UPDATE_ITEM,
        Operation.DELETE_ITEM,
        Operation.BATCH_WRITE_ITEM,
        Operation.TRANSACT_WRITE_ITEMS,
      ],
      period: FIVE_MINUTES,
    });
    this.alarm('TableThrottlesAlarm', {
      alarmDescription: 'DynamoDB throttled requests to the table: reads or writes are failing or retried.',
      metric: throttled,
      threshold: 1,
      evaluationPeriods: 1,
    });
    for (const [name, description] of Object.entries(SERVICE_METRICS))
      this.alarm(`${name}Alarm`, {
        alarmDescription: description,
        metric: this.serviceMetric(name),
        threshold: 1,
        evaluationPeriods: 1,
      });

    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Requests', left: [requests], right: [serverErrorPercent], width: 8 }),
      new GraphWidget({
        title: 'Latency (ms)',
        left: [
          api.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }),
          api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'Table',
        left: [
          table.metricConsumedReadCapacityUnits({ period: FIVE_MINUTES }),
          table.metricConsumedWriteCapacityUnits({ period: FIVE_MINUTES }),
        ],
        right: [throttled],
        width: 8,
      }),
      new GraphWidget({
        title: 'Service',
        left: Object.keys(SERVICE_METRICS).map((name) => this.serviceMetric(name)),
        width: 8,
      }),
    );
  }

  /** One of the service's own metrics (a count, summed over 5 minutes). */
  serviceMetric(name: string): Metric {
    return new Metric({
      namespace: METRIC_NAMESPACE,
      metricName: name,
      dimensionsMap: { service: SERVICE_NAME, Stage: this.stage },
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
  }

  /** An alarm that notifies the topic when raised and when it clears; missing data is not a breach. */
  alarm(id: string, props: Omit<AlarmProps, 'comparisonOperator'> & Partial<AlarmProps>): Alarm {
    const alarm = new Alarm(this, id, {
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      ...props,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    return alarm;
  }

  /** Each function's errors and throttles, in one alarm per function, and their graphs. */
  watchFunctions(functions: readonly LambdaFunction[]) {
    for (const fn of functions) {
      const errors = fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' });
      const throttles = fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' });
      this.alarm(`${fn.node.id}FailuresAlarm`, {
        alarmDescription: `${fn.node.id}: invocations that failed (errors) or were refused (throttles).`,
        metric: new MathExpression({
          expression: 'errors + throttles',
          usingMetrics: { errors, throttles },
          period: FIVE_MINUTES,
        }),
        threshold: 1,
        evaluationPeriods: 1,
      });
    }
    const all = (metric: (fn: LambdaFunction) => IMetric) => functions.map(metric);
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Function errors',
        left: all((fn) => fn.metricErrors({ period: FIVE_MINUTES, label: fn.node.id })),
        width: 8,
      }),
      new GraphWidget({
        title: 'Function throttles',
        left: all((fn) => fn.metricThrottles({ period: FIVE_MINUTES, label: fn.node.id })),
        width: 8,
      }),
      new GraphWidget({
        title: 'Function duration p99 (ms)',
        left: all((fn) => fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99', label: fn.node.id })),
        width: 8,
      }),
    );
  }
}
