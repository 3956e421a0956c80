import { Aws, CfnOutput, Duration, RemovalPolicy, Stack } from "aws-cdk-lib";
import type * as apigw from "aws-cdk-lib/aws-apigatewayv2";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { EVENTS_CONCURRENCY_ALARM_PERCENT, eventsConcurrencyAlarmThreshold } from "../concurrency.js";

export interface ServiceMonitoringProps {
  /** The HTTP API (its `Count`, `5xx` and `Latency` metrics). */
  api: apigw.HttpApi;
  /** Every function by a short name (`users`, `events`, `worker`, ...): one error and one throttle alarm each. */
  functions: Record<string, lambda.IFunction>;
  /** The function holding the clients' long polls; its concurrent executions are the connected clients. */
  eventsFunction: lambda.IFunction;
  /** The events function's reserved concurrency; above `0`, an alarm fires as the clients near it. */
  eventsReservedConcurrency: number;
  /** Deferred-work queue and its dead-letter queue. */
  queue: sqs.IQueue;
  deadLetterQueue: sqs.IQueue;
  table: dynamodb.ITable;
  /** Subscribed to the alarm topic by email when set. */
  alarmEmail?: string;
}

/** Five minutes: the period of every alarm (CloudWatch's standard resolution for these metrics). */
const ALARM_PERIOD = Duration.minutes(5);

/**
 * The thresholds of the alarms; docs/deploying.md ("Watching it") says what
 * each alarm means and what to do about it.
 */
export const ALARM_THRESHOLDS = {
  /** Percent of API requests answered 5xx within five minutes. */
  apiServerErrorPercent: 1,
  /** Requests in five minutes below which the 5xx rate is not judged (one error in ten requests is noise). */
  apiMinimumRequests: 50,
  /**
   * Seconds the oldest deferred job may wait. Fan-outs normally drain in
   * seconds; ten minutes means the worker is failing, throttled or capped
   * below the load (a failed job is retried after the 12-minute visibility
   * timeout, which this catches too).
   */
  queueAgeSeconds: 600,
  /** Percent of the events reservation in use (connected clients) at which `events-concurrency` fires. */
  eventsConcurrencyPercent: EVENTS_CONCURRENCY_ALARM_PERCENT,
} as const;

/** The DynamoDB operations the functions issue: the `Operation` dimensions of `ThrottledRequests`. */
const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
  dynamodb.Operation.TRANSACT_GET_ITEMS,
];

/**
 * What an operator watches: CloudWatch alarms on the signals that mean users
 * are affected or work is being lost, one SNS topic they all notify (and,
 * with `alarmEmail`, an email subscription), and one dashboard.
 *
 * Alarms treat missing data as fine: an idle organization publishes no
 * metrics at all, and that is not a fault. Each alarm also notifies when it
 * returns to OK, so a mailbox shows when a problem ended.
 *
 * The topic is encrypted with a customer-managed KMS key ($1 a month):
 * CloudWatch cannot publish to a topic under the AWS-managed SNS key, whose
 * policy cannot be changed to let it in.
 */
export class ServiceMonitoring extends Construct {
  readonly topic: sns.Topic;
  readonly topicKey: kms.Key;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ServiceMonitoringProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;

    this.topicKey = new kms.Key(this, "AlarmTopicKey", {
      description: `Encrypts the alarm topic of ${stackName}`,
      enableKeyRotation: true,
      // The key only protects the topic's messages in flight; it is useless once the topic is gone.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    // CloudWatch publishes alarm notifications as the service principal, on behalf of an alarm of this
    // account: the topic policy (which replaces SNS's default one) must let it publish, and the key let it
    // encrypt. Both are scoped to this account's alarms (aws:SourceAccount, aws:SourceArn), so no other
    // account's alarm can use them (the confused-deputy case of the SNS and KMS guides).
    const fromThisAccountsAlarms = {
      StringEquals: { "aws:SourceAccount": Aws.ACCOUNT_ID },
      ArnLike: { "aws:SourceArn": `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
    };
    const cloudWatch = new iam.ServicePrincipal("cloudwatch.amazonaws.com");
    this.topicKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: "CloudWatchAlarmsUseKey",
        principals: [cloudWatch],
        actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
        // In a key policy, "*" is the key itself.
        resources: ["*"],
        conditions: fromThisAccountsAlarms,
      }),
    );
    this.topic = new sns.Topic(this, "AlarmTopic", {
      displayName: `${stackName} alarms`,
      masterKey: this.topicKey,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: "CloudWatchAlarmsPublish",
        principals: [cloudWatch],
        actions: ["sns:Publish"],
        resources: [this.topic.topicArn],
        conditions: fromThisAccountsAlarms,
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    this.addAlarms(props, stackName);
    this.dashboard = this.buildDashboard(props, stackName);

    // Stack outputs (at the stack's root, so their names stay plain): where to subscribe and look.
    new CfnOutput(Stack.of(this), "AlarmTopicArn", {
      value: this.topic.topicArn,
      description: "SNS topic every alarm notifies: subscribe mail, chat or paging to it",
    });
    new CfnOutput(Stack.of(this), "DashboardName", {
      value: `${stackName}-operations`,
      description: "CloudWatch dashboard of the service",
    });
  }

  private addAlarms(props: ServiceMonitoringProps, stackName: string): void {
    const alarm = (
      id: string,
      name: string,
      description: string,
      metric: cloudwatch.IMetric,
      threshold: number,
      evaluationPeriods = 1,
    ) => {
      const created = new cloudwatch.Alarm(this, id, {
        alarmName: `${stackName}-${name}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(new SnsAction(this.topic));
      created.addOkAction(new SnsAction(this.topic));
      this.alarms.push(created);
    };

    alarm(
      "DeadLetterJobs",
      "dead-letter-jobs",
      "Deferred jobs failed five times and were parked in the dead-letter queue: some fan-out or bulk " +
        "update did not happen. Read the worker's 'deferred job failed' log lines, fix the cause, then redrive.",
      props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: "Maximum" }),
      1,
    );
    alarm(
      "QueueAge",
      "deferred-work-age",
      `The oldest deferred job has waited over ${ALARM_THRESHOLDS.queueAgeSeconds} s for two periods: the worker ` +
        "is failing, throttled or capped below the load. Check the worker's errors and throttles.",
      props.queue.metricApproximateAgeOfOldestMessage({ period: ALARM_PERIOD, statistic: "Maximum" }),
      ALARM_THRESHOLDS.queueAgeSeconds,
      2,
    );

    const requests = props.api.metricCount({ period: ALARM_PERIOD, statistic: "Sum" });
    const serverErrors = props.api.metricServerError({ period: ALARM_PERIOD, statistic: "Sum" });
    alarm(
      "ApiServerErrors",
      "api-5xx-rate",
      `At least ${ALARM_THRESHOLDS.apiServerErrorPercent} % of API requests in five minutes were answered 5xx ` +
        `(judged from ${ALARM_THRESHOLDS.apiMinimumRequests} requests up). Find the function with errors or ` +
        "throttles and read its 'unhandled error' log lines.",
      new cloudwatch.MathExpression({
        expression: `IF(requests >= ${ALARM_THRESHOLDS.apiMinimumRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        label: "5xx %",
        period: ALARM_PERIOD,
      }),
      ALARM_THRESHOLDS.apiServerErrorPercent,
    );

    for (const [name, fn] of Object.entries(props.functions)) {
      const pascal = name.charAt(0).toUpperCase() + name.slice(1);
      alarm(
        `${pascal}Errors`,
        `${name}-errors`,
        `The ${name} function failed (crash, timeout or out of memory), beyond the errors it answers itself. ` +
          "Read its log group for the request IDs.",
        fn.metricErrors({ period: ALARM_PERIOD, statistic: "Sum" }),
        1,
      );
      alarm(
        `${pascal}Throttles`,
        `${name}-throttles`,
        `Lambda refused invocations of the ${name} function: the account's concurrency (or the function's ` +
          "reservation) is used up. See 'Concurrency' in docs/deploying.md.",
        fn.metricThrottles({ period: ALARM_PERIOD, statistic: "Sum" }),
        1,
      );
    }

    if (props.eventsReservedConcurrency > 0) {
      const threshold = eventsConcurrencyAlarmThreshold(props.eventsReservedConcurrency);
      alarm(
        "EventsConcurrency",
        "events-concurrency",
        `Connected clients (the events function's concurrent long polls) reached ${threshold}, ` +
          `${ALARM_THRESHOLDS.eventsConcurrencyPercent} % of its reservation of ${props.eventsReservedConcurrency}: ` +
          "past the reservation further long polls are throttled. Ask AWS for a higher concurrency quota and raise " +
          "accountConcurrencyQuota (or eventsReservedConcurrency); see 'Concurrency' in docs/deploying.md.",
        props.eventsFunction.metric("ConcurrentExecutions", { period: ALARM_PERIOD, statistic: "Maximum" }),
        threshold,
      );
    }

    alarm(
      "TableThrottledRequests",
      "table-throttled-requests",
      "DynamoDB refused requests on the table (a hot partition or an account limit). The SDK retries, so " +
        "users see slowness first; look for one conversation or bulk job dominating the writes.",
      props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: ALARM_PERIOD }),
      1,
    );
    alarm(
      "TableThrottleEvents",
      "table-throttle-events",
      "Reads or writes on the table exceeded a partition's or the table's throughput (read and write throttle events).",
      new cloudwatch.MathExpression({
        expression: "reads + writes",
        usingMetrics: {
          reads: props.table.metric("ReadThrottleEvents", { period: ALARM_PERIOD, statistic: "Sum" }),
          writes: props.table.metric("WriteThrottleEvents", { period: ALARM_PERIOD, statistic: "Sum" }),
        },
        label: "throttle events",
        period: ALARM_PERIOD,
      }),
      1,
    );
  }

  private buildDashboard(props: ServiceMonitoringProps, stackName: string): cloudwatch.Dashboard {
    const minute = Duration.minutes(1);
    const apiFunctions = Object.entries(props.functions).filter(
      ([name, fn]) => fn !== props.eventsFunction && name !== "worker",
    );
    const durations = (statistic: string) =>
      apiFunctions.map(([name, fn]) => fn.metricDuration({ period: minute, statistic, label: name }));
    const graph = (title: string, left: cloudwatch.IMetric[], right: cloudwatch.IMetric[] = [], width = 12) =>
      new cloudwatch.GraphWidget({ title, left, right, width, height: 6 });

    const dashboard = new cloudwatch.Dashboard(this, "Dashboard", {
      dashboardName: `${stackName}-operations`,
      defaultInterval: Duration.hours(3),
    });
    dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: "Alarms", alarms: this.alarms, width: 24, height: 4 }),
    );
    dashboard.addWidgets(
      graph("Requests per minute", [
        props.api.metricCount({ period: minute, statistic: "Sum", label: "requests" }),
        props.api.metricClientError({ period: minute, statistic: "Sum", label: "4xx" }),
        props.api.metricServerError({ period: minute, statistic: "Sum", label: "5xx" }),
      ]),
      graph("API latency (ms)", [
        props.api.metricLatency({ period: minute, statistic: "p50", label: "p50" }),
        props.api.metricLatency({ period: minute, statistic: "p99", label: "p99" }),
        props.api.metricIntegrationLatency({ period: minute, statistic: "p99", label: "integration p99" }),
      ]),
    );
    dashboard.addWidgets(
      graph("Duration p50 per route group (ms)", durations("p50")),
      graph("Duration p99 per route group (ms)", durations("p99")),
    );
    const max = (label: string) => ({ period: minute, statistic: "Maximum", label });
    const sum = (label: string) => ({ period: minute, statistic: "Sum", label });
    dashboard.addWidgets(
      graph(
        "Connected clients (concurrent long polls)",
        [props.eventsFunction.metric("ConcurrentExecutions", max("long polls"))],
        [props.eventsFunction.metricDuration({ period: minute, statistic: "p50", label: "poll duration p50 (ms)" })],
        8,
      ),
      graph(
        "Deferred-work backlog",
        [
          props.queue.metricApproximateNumberOfMessagesVisible(max("waiting")),
          props.queue.metricApproximateNumberOfMessagesNotVisible(max("running")),
          props.deadLetterQueue.metricApproximateNumberOfMessagesVisible(max("dead letters")),
        ],
        [props.queue.metricApproximateAgeOfOldestMessage(max("oldest (s)"))],
        8,
      ),
      graph(
        "DynamoDB consumed units per minute",
        [
          props.table.metricConsumedReadCapacityUnits(sum("read units")),
          props.table.metricConsumedWriteCapacityUnits(sum("write units")),
        ],
        [],
        8,
      ),
    );
    const functions = Object.entries(props.functions);
    dashboard.addWidgets(
      graph(
        "Function errors and throttles",
        functions.map(([name, fn]) => fn.metricErrors(sum(`${name} errors`))),
        functions.map(([name, fn]) => fn.metricThrottles(sum(`${name} throttles`))),
        24,
      ),
    );
    return dashboard;
  }
}
