import { beforeAll, describe, expect, it } from "vitest";
import { GROUPS } from "../../shared/routes.js";
import { ALARM_THRESHOLDS } from "../../infra/constructs/monitoring.js";
import {
  FROM_THIS_ACCOUNTS_ALARMS,
  alarmNamed,
  concurrencyWarnings,
  nagFindings,
  ofType,
  synthesize,
  type Synthesized,
} from "./operations-synth.js";

describe("monitoring and concurrency (an account quota of 1,000)", () => {
  let s: Synthesized;
  let topicId: string;
  const functionNames = [...GROUPS, "fallback", "worker"];

  beforeAll(async () => {
    s = await synthesize({ accountConcurrencyQuota: 1000 });
    topicId = s.id("Monitoring/AlarmTopic");
  }, 600_000);

  it("has one SNS topic, encrypted with a rotating KMS key this account's alarms may use", () => {
    const topics = ofType(s, "AWS::SNS::Topic");
    expect(topics).toHaveLength(1);
    const keyId = s.id("Monitoring/AlarmTopicKey");
    expect(topics[0]![1].Properties!.KmsMasterKeyId).toEqual({ "Fn::GetAtt": [keyId, "Arn"] });
    const key = s.resources[keyId]!.Properties!;
    expect(key.EnableKeyRotation).toBe(true);
    const cloudWatchStatements = (key.KeyPolicy.Statement as any[]).filter(
      (st) => JSON.stringify(st.Principal).includes("cloudwatch.amazonaws.com"),
    );
    expect(cloudWatchStatements).toEqual([
      {
        Sid: "CloudWatchAlarmsUseKey",
        Effect: "Allow",
        Principal: { Service: "cloudwatch.amazonaws.com" },
        Action: ["kms:Decrypt", "kms:GenerateDataKey*"],
        Resource: "*",
        Condition: FROM_THIS_ACCOUNTS_ALARMS,
      },
    ]);
  });

  it("lets CloudWatch publish to the topic for this account's alarms only, and refuses non-TLS publishers", () => {
    const policies = ofType(s, "AWS::SNS::TopicPolicy");
    expect(policies).toHaveLength(1);
    expect(policies[0]![1].Properties!.Topics).toEqual([{ Ref: topicId }]);
    const statements = policies[0]![1].Properties!.PolicyDocument.Statement as any[];
    // The topic policy replaces SNS's default one: without this Allow no alarm notification is delivered.
    expect(statements.filter((st) => st.Effect === "Allow")).toEqual([
      {
        Sid: "CloudWatchAlarmsPublish",
        Effect: "Allow",
        Principal: { Service: "cloudwatch.amazonaws.com" },
        Action: "sns:Publish",
        Resource: { Ref: topicId },
        Condition: FROM_THIS_ACCOUNTS_ALARMS,
      },
    ]);
    expect(statements.filter((st) => st.Effect === "Deny")).toEqual([
      expect.objectContaining({
        Action: "sns:Publish",
        Principal: "*",
        Resource: { Ref: topicId },
        Condition: { Bool: { "aws:SecureTransport": "false" } },
      }),
    ]);
  });

  it("outputs the alarm topic and the dashboard's name", () => {
    const outputs = s.template.toJSON().Outputs;
    expect(outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
    expect(outputs.DashboardName.Value).toBe("Test-operations");
    for (const name of ["AlarmTopicArn", "DashboardName"]) expect(typeof outputs[name].Description, name).toBe("string");
  });

  it("has no email subscription without alarmEmail", () => {
    s.template.resourceCountIs("AWS::SNS::Subscription", 0);
  });

  it("notifies the topic from every alarm, on alarm and back to OK, and treats missing data as fine", () => {
    const alarms = ofType(s, "AWS::CloudWatch::Alarm");
    // Two per function, five for the queues, API and table, one for the events reservation.
    expect(alarms).toHaveLength(2 * functionNames.length + 5 + 1);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties!.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties!.OKActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties!.TreatMissingData, id).toBe("notBreaching");
      expect(alarm.Properties!.ComparisonOperator, id).toBe("GreaterThanOrEqualToThreshold");
      expect(alarm.Properties!.AlarmDescription, id).toEqual(expect.any(String));
    }
  });

  it("alarms on any job in the dead-letter queue", () => {
    expect(alarmNamed(s, "dead-letter-jobs")).toMatchObject({
      Namespace: "AWS/SQS",
      MetricName: "ApproximateNumberOfMessagesVisible",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [s.id("Deferred/DeadLetterQueue"), "QueueName"] } }],
      Statistic: "Maximum",
      Threshold: 1,
      EvaluationPeriods: 1,
    });
  });

  it("alarms when the worker queue's oldest job has waited ten minutes for two periods", () => {
    expect(alarmNamed(s, "deferred-work-age")).toMatchObject({
      Namespace: "AWS/SQS",
      MetricName: "ApproximateAgeOfOldestMessage",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [s.id("Deferred/Queue"), "QueueName"] } }],
      Threshold: ALARM_THRESHOLDS.queueAgeSeconds,
      EvaluationPeriods: 2,
      Period: 300,
    });
    expect(ALARM_THRESHOLDS.queueAgeSeconds).toBe(600);
  });

  it("alarms on the API's 5xx rate over five minutes, judged only from a minimum request count", () => {
    const alarm = alarmNamed(s, "api-5xx-rate");
    expect(alarm.Threshold).toBe(1);
    const apiDimension = [{ Name: "ApiId", Value: { Ref: s.id("Api/HttpApi") } }];
    expect(alarm.Metrics).toEqual([
      expect.objectContaining({ Expression: "IF(requests >= 50, 100 * errors / requests, 0)", ReturnData: true }),
      {
        Id: "requests",
        MetricStat: { Metric: { Namespace: "AWS/ApiGateway", MetricName: "Count", Dimensions: apiDimension }, Period: 300, Stat: "Sum" },
        ReturnData: false,
      },
      {
        Id: "errors",
        MetricStat: { Metric: { Namespace: "AWS/ApiGateway", MetricName: "5xx", Dimensions: apiDimension }, Period: 300, Stat: "Sum" },
        ReturnData: false,
      },
    ]);
  });

  it("alarms on errors and on throttles of every function", () => {
    for (const name of functionNames) {
      const fnId = s.id(`${name.charAt(0).toUpperCase()}${name.slice(1)}${name === "worker" ? "" : "Api"}/Function`);
      for (const [suffix, metric] of [["errors", "Errors"], ["throttles", "Throttles"]] as const) {
        expect(alarmNamed(s, `${name}-${suffix}`), `${name} ${metric}`).toMatchObject({
          Namespace: "AWS/Lambda",
          MetricName: metric,
          Dimensions: [{ Name: "FunctionName", Value: { Ref: fnId } }],
          Statistic: "Sum",
          Threshold: 1,
        });
      }
    }
  });

  it("alarms on DynamoDB throttled requests per operation and on read/write throttle events", () => {
    const tableRef = { Ref: s.id("Data/Table") };
    const throttled = alarmNamed(s, "table-throttled-requests").Metrics as any[];
    const operations = throttled.filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric);
    expect(operations.map((m) => m.Dimensions.find((d: any) => d.Name === "Operation").Value)).toEqual(
      expect.arrayContaining(["GetItem", "Query", "PutItem", "UpdateItem", "BatchWriteItem", "TransactWriteItems"]),
    );
    for (const m of operations) {
      expect(m).toMatchObject({ Namespace: "AWS/DynamoDB", MetricName: "ThrottledRequests" });
      expect(m.Dimensions).toContainEqual({ Name: "TableName", Value: tableRef });
    }
    expect(throttled.filter((m) => m.Expression)).toHaveLength(1);
    const events = alarmNamed(s, "table-throttle-events").Metrics as any[];
    expect(events.filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric)).toEqual([
      { Namespace: "AWS/DynamoDB", MetricName: "ReadThrottleEvents", Dimensions: [{ Name: "TableName", Value: tableRef }] },
      { Namespace: "AWS/DynamoDB", MetricName: "WriteThrottleEvents", Dimensions: [{ Name: "TableName", Value: tableRef }] },
    ]);
  });

  it("has one dashboard: requests, latency percentiles, per-group durations, clients, backlog, consumed units", () => {
    const dashboards = ofType(s, "AWS::CloudWatch::Dashboard");
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]![1].Properties!.DashboardName).toBe("Test-operations");
    const body = JSON.stringify(dashboards[0]![1].Properties!.DashboardBody);
    for (const needle of [
      '\\"AWS/ApiGateway\\",\\"Count\\"',
      '\\"AWS/ApiGateway\\",\\"Latency\\"',
      '\\"stat\\":\\"p50\\"',
      '\\"stat\\":\\"p99\\"',
      '\\"AWS/Lambda\\",\\"Duration\\"',
      '\\"AWS/Lambda\\",\\"ConcurrentExecutions\\"',
      '\\"AWS/SQS\\",\\"ApproximateNumberOfMessagesVisible\\"',
      '\\"AWS/SQS\\",\\"ApproximateAgeOfOldestMessage\\"',
      '\\"AWS/DynamoDB\\",\\"ConsumedReadCapacityUnits\\"',
      '\\"AWS/DynamoDB\\",\\"ConsumedWriteCapacityUnits\\"',
      "Connected clients",
      "Duration p99 per route group",
    ]) {
      expect(body, needle).toContain(needle);
    }
    // One duration line per API group (the events long poll has a graph of its own), for p50 and p99.
    const perGroupLabels = [...GROUPS.filter((g) => g !== "events"), "fallback"];
    for (const label of perGroupLabels) expect(body.split(`\\"label\\":\\"${label}\\"`).length - 1, label).toBe(2);
    expect(body).toContain('\\"label\\":\\"long polls\\"');
  });

  it("reserves half the quota for the events function only, and caps the worker's SQS concurrency", () => {
    const reserved = ofType(s, "AWS::Lambda::Function")
      .filter(([, r]) => r.Properties!.ReservedConcurrentExecutions !== undefined)
      .map(([id, r]) => [id, r.Properties!.ReservedConcurrentExecutions]);
    expect(reserved).toEqual([[s.id("EventsApi/Function"), 500]]);
    s.template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: s.id("Worker/Function") },
      ScalingConfig: { MaximumConcurrency: 20 },
    });
  });

  it("alarms when connected clients reach 80 % of the events reservation", () => {
    expect(alarmNamed(s, "events-concurrency")).toMatchObject({
      Namespace: "AWS/Lambda",
      MetricName: "ConcurrentExecutions",
      Dimensions: [{ Name: "FunctionName", Value: { Ref: s.id("EventsApi/Function") } }],
      Statistic: "Maximum",
      Period: 300,
      Threshold: 400,
    });
    expect(ALARM_THRESHOLDS.eventsConcurrencyPercent).toBe(80);
  });

  it("runs the events function per request: no capacity provider, VPC or alias", () => {
    for (const type of ["AWS::Lambda::CapacityProvider", "AWS::EC2::VPC", "AWS::Lambda::Alias", "AWS::Lambda::Version"]) {
      s.template.resourceCountIs(type, 0);
    }
    expect(s.resources[s.id("EventsApi/Function")]!.Properties!.CapacityProviderConfig).toBeUndefined();
    expect(s.id("EventsApi/Function")).toMatch(/^EventsApiFunction/);
  });

  it("passes cdk-nag's AWS Solutions checks", () => {
    expect(nagFindings(s)).toEqual([]);
  });
});

describe("monitoring and concurrency from the settings", () => {
  let s: Synthesized;
  let unreserved: Synthesized;
  let unknown: Synthesized;

  beforeAll(async () => {
    [s, unreserved, unknown] = await Promise.all([
      synthesize({ alarmEmail: "ops@example.com", eventsReservedConcurrency: 800, workerMaxConcurrency: 5 }),
      synthesize({ eventsReservedConcurrency: 0 }),
      synthesize({}),
    ]);
  }, 600_000);

  it("subscribes alarmEmail to the alarm topic", () => {
    s.template.resourceCountIs("AWS::SNS::Subscription", 1);
    s.template.hasResourceProperties("AWS::SNS::Subscription", {
      Protocol: "email",
      Endpoint: "ops@example.com",
      TopicArn: { Ref: s.id("Monitoring/AlarmTopic") },
    });
  });

  it("applies the events reservation, its alarm at 80 %, and the worker cap", () => {
    expect(s.resources[s.id("EventsApi/Function")]!.Properties!.ReservedConcurrentExecutions).toBe(800);
    expect(alarmNamed(s, "events-concurrency").Threshold).toBe(640);
    s.template.hasResourceProperties("AWS::Lambda::EventSourceMapping", { ScalingConfig: { MaximumConcurrency: 5 } });
  });

  it("reserves nothing with eventsReservedConcurrency 0, has no concurrency alarm then, and warns of nothing", () => {
    const reserved = ofType(unreserved, "AWS::Lambda::Function").filter(
      ([, r]) => r.Properties!.ReservedConcurrentExecutions !== undefined,
    );
    expect(reserved).toEqual([]);
    const names = ofType(unreserved, "AWS::CloudWatch::Alarm").map(([, r]) => r.Properties!.AlarmName);
    expect(names).not.toContain("Test-events-concurrency");
    expect(concurrencyWarnings(unreserved)).toEqual([]);
  });

  it("reserves nothing without a quota or a reservation, and says so in a synth warning", () => {
    expect(unknown.resources[unknown.id("EventsApi/Function")]!.Properties!.ReservedConcurrentExecutions).toBeUndefined();
    expect(concurrencyWarnings(unknown)).toEqual([expect.stringContaining("Set accountConcurrencyQuota to `aws lambda get-account-settings")]);
  });
});
