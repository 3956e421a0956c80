import { readFileSync } from "node:fs";
import path from "node:path";
import { App, Aspects } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import type { CfnFunction } from "aws-cdk-lib/aws-lambda";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { GROUPS } from "../../shared/routes.js";
import { ALARM_THRESHOLDS } from "../../infra/constructs/monitoring.js";
import { MANAGED_EVENTS_MEMORY_MB } from "../../infra/constructs/managed-events.js";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { OPERATIONS_DEFAULTS, operationsSettingsFromContext } from "../../infra/operations-settings.js";
import { ZulipStack } from "../../infra/stack.js";

const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "cdk.json"), "utf8")) as { context: Record<string, unknown> }
).context;

type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

interface Synthesized {
  stack: ZulipStack;
  template: Template;
  resources: Resources;
  /** Logical ID of a construct's CloudFormation resource. */
  id(construct: { node: { defaultChild?: unknown } }): string;
}

/**
 * Synthesizes the stack with cdk-nag's checks and without bundling the
 * functions (only configuration is asserted here; test/infra/stack.test.ts
 * synthesizes the bundled default).
 */
function synthesize(context: Record<string, unknown> = {}): Synthesized {
  const app = new App({ context: { ...CDK_JSON_CONTEXT, ...context, "aws:cdk:bundling-stacks": [] } });
  const stack = new ZulipStack(app, "Test");
  Aspects.of(app).add(new AwsSolutionsChecks());
  const template = Template.fromStack(stack);
  return {
    stack,
    template,
    resources: template.toJSON().Resources as Resources,
    id: (construct) => stack.getLogicalId(construct.node.defaultChild as CfnFunction),
  };
}

const ofType = (s: Synthesized, type: string) => Object.entries(s.resources).filter(([, r]) => r.Type === type);
const alarmNamed = (s: Synthesized, name: string) => {
  const found = ofType(s, "AWS::CloudWatch::Alarm").filter(([, r]) => r.Properties!.AlarmName === `Test-${name}`);
  expect(found, name).toHaveLength(1);
  return found[0]![1].Properties!;
};
const nagFindings = (s: Synthesized) => {
  const annotations = Annotations.fromStack(s.stack);
  return [
    ...annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ...annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ...annotations.findWarning("*", Match.stringLikeRegexp("CdkNagValidationFailure.*")),
  ].map((e) => `${e.id}: ${String(e.entry.data).slice(0, 100)}`);
};

describe("monitoring and concurrency (default context)", () => {
  let s: Synthesized;
  let topicId: string;
  const functionNames = [...GROUPS, "fallback", "worker"];

  beforeAll(() => {
    s = synthesize();
    topicId = s.id(s.stack.monitoring.topic);
  }, 120_000);

  it("has one SNS topic, encrypted with a rotating KMS key CloudWatch may use, refusing non-TLS publishers", () => {
    const topics = ofType(s, "AWS::SNS::Topic");
    expect(topics).toHaveLength(1);
    const keyId = s.id(s.stack.monitoring.topicKey);
    expect(topics[0]![1].Properties!.KmsMasterKeyId).toEqual({ "Fn::GetAtt": [keyId, "Arn"] });
    const key = s.resources[keyId]!.Properties!;
    expect(key.EnableKeyRotation).toBe(true);
    expect(key.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: "Allow",
        Principal: { Service: "cloudwatch.amazonaws.com" },
        Action: ["kms:Decrypt", "kms:GenerateDataKey*"],
      }),
    );
    const policies = ofType(s, "AWS::SNS::TopicPolicy");
    expect(policies).toHaveLength(1);
    expect(policies[0]![1].Properties!.Topics).toEqual([{ Ref: topicId }]);
    expect(policies[0]![1].Properties!.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
    );
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
    expect(alarms).toHaveLength(2 * functionNames.length + 5);
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
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [s.id(s.stack.deferred.deadLetterQueue), "QueueName"] } }],
      Statistic: "Maximum",
      Threshold: 1,
      EvaluationPeriods: 1,
    });
  });

  it("alarms when the worker queue's oldest job has waited ten minutes for two periods", () => {
    expect(alarmNamed(s, "deferred-work-age")).toMatchObject({
      Namespace: "AWS/SQS",
      MetricName: "ApproximateAgeOfOldestMessage",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [s.id(s.stack.deferred.queue), "QueueName"] } }],
      Threshold: ALARM_THRESHOLDS.queueAgeSeconds,
      EvaluationPeriods: 2,
      Period: 300,
    });
    expect(ALARM_THRESHOLDS.queueAgeSeconds).toBe(600);
  });

  it("alarms on the API's 5xx rate over five minutes, judged only from a minimum request count", () => {
    const alarm = alarmNamed(s, "api-5xx-rate");
    expect(alarm.Threshold).toBe(1);
    const apiDimension = [{ Name: "ApiId", Value: { Ref: s.id(s.stack.api.api) } }];
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
    const fns = { ...s.stack.groupFunctions, fallback: s.stack.fallbackFunction, worker: s.stack.workerFunction };
    for (const name of functionNames) {
      const fnId = s.id(fns[name as keyof typeof fns].fn);
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
    const tableRef = { Ref: s.id(s.stack.table.table) };
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

  it("reserves concurrency for the events function only, and caps the worker's SQS concurrency", () => {
    const reserved = ofType(s, "AWS::Lambda::Function")
      .filter(([, r]) => r.Properties!.ReservedConcurrentExecutions !== undefined)
      .map(([id, r]) => [id, r.Properties!.ReservedConcurrentExecutions]);
    expect(reserved).toEqual([[s.id(s.stack.groupFunctions.events.fn), OPERATIONS_DEFAULTS.eventsReservedConcurrency]]);
    expect(OPERATIONS_DEFAULTS.eventsReservedConcurrency).toBe(500);
    s.template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: s.id(s.stack.workerFunction.fn) },
      ScalingConfig: { MaximumConcurrency: 20 },
    });
  });

  it("runs the events function per request: no capacity provider, VPC or alias", () => {
    for (const type of ["AWS::Lambda::CapacityProvider", "AWS::EC2::VPC", "AWS::Lambda::Alias", "AWS::Lambda::Version"]) {
      s.template.resourceCountIs(type, 0);
    }
    expect(s.resources[s.id(s.stack.groupFunctions.events.fn)]!.Properties!.CapacityProviderConfig).toBeUndefined();
    expect(s.id(s.stack.groupFunctions.events.fn)).toMatch(/^EventsApiFunction/);
  });

  it("passes cdk-nag's AWS Solutions checks", () => {
    expect(nagFindings(s)).toEqual([]);
  });
});

describe("monitoring and concurrency from context", () => {
  let s: Synthesized;

  beforeAll(() => {
    s = synthesize({ alarmEmail: "ops@example.com", eventsReservedConcurrency: "800", workerMaxConcurrency: 5 });
  }, 120_000);

  it("subscribes alarmEmail to the alarm topic", () => {
    s.template.resourceCountIs("AWS::SNS::Subscription", 1);
    s.template.hasResourceProperties("AWS::SNS::Subscription", {
      Protocol: "email",
      Endpoint: "ops@example.com",
      TopicArn: { Ref: s.id(s.stack.monitoring.topic) },
    });
  });

  it("applies the events reservation and the worker cap", () => {
    expect(s.resources[s.id(s.stack.groupFunctions.events.fn)]!.Properties!.ReservedConcurrentExecutions).toBe(800);
    s.template.hasResourceProperties("AWS::Lambda::EventSourceMapping", { ScalingConfig: { MaximumConcurrency: 5 } });
  });

  it("reserves nothing with eventsReservedConcurrency=0", () => {
    const unreserved = synthesize({ eventsReservedConcurrency: 0 });
    const reserved = ofType(unreserved, "AWS::Lambda::Function").filter(
      ([, r]) => r.Properties!.ReservedConcurrentExecutions !== undefined,
    );
    expect(reserved).toEqual([]);
  }, 120_000);
});

describe("events on Lambda Managed Instances (opt-in)", () => {
  let s: Synthesized;
  let eventsId: string;

  beforeAll(() => {
    s = synthesize({ eventsManagedInstances: "true", eventsPollsPerEnvironment: "300", eventsMaxVCpus: "24" });
    eventsId = s.id(s.stack.groupFunctions.events.fn);
  }, 120_000);

  it("creates an arm64 capacity provider in the isolated subnets of its own VPC, bounded in vCPUs", () => {
    const providers = ofType(s, "AWS::Lambda::CapacityProvider");
    expect(providers).toHaveLength(1);
    const p = providers[0]![1].Properties!;
    expect(p.InstanceRequirements).toEqual({ Architectures: ["arm64"] });
    expect(p.CapacityProviderScalingConfig).toEqual({ MaxVCpuCount: 24, ScalingMode: "Auto" });
    const managed = s.stack.managedEvents!;
    expect(p.VpcConfig.SubnetIds).toEqual(managed.vpc.isolatedSubnets.map((subnet) => ({ Ref: s.id(subnet) })));
    expect(p.VpcConfig.SubnetIds).toHaveLength(2);
    s.template.resourceCountIs("AWS::EC2::NatGateway", 0);
    s.template.resourceCountIs("AWS::EC2::InternetGateway", 0);
  });

  it("links the events function to it: 2 GB, many polls per environment, no reservation", () => {
    const fn = s.resources[eventsId]!.Properties!;
    expect(fn.CapacityProviderConfig).toEqual({
      LambdaManagedInstancesCapacityProviderConfig: {
        CapacityProviderArn: { "Fn::GetAtt": [s.id(s.stack.managedEvents!.capacityProvider), "Arn"] },
        PerExecutionEnvironmentMaxConcurrency: 300,
        ExecutionEnvironmentMemoryGiBPerVCpu: 2,
      },
    });
    expect(fn.MemorySize).toBe(MANAGED_EVENTS_MEMORY_MB);
    // A function of its own: Lambda cannot detach a capacity provider, so switching replaces the function.
    expect(eventsId).toMatch(/^EventsManagedApiFunction/);
    expect(fn.ReservedConcurrentExecutions).toBeUndefined();
    // Only the events function moves.
    const others = ofType(s, "AWS::Lambda::Function").filter(([id, r]) => id !== eventsId && r.Properties!.CapacityProviderConfig);
    expect(others).toEqual([]);
  });

  it("has API Gateway invoke the alias of the published version, for every events route", () => {
    const aliasId = s.id(s.stack.managedEvents!.alias);
    const alias = s.resources[aliasId]!.Properties!;
    expect(alias.FunctionName).toEqual({ Ref: eventsId });
    const versionId = alias.FunctionVersion["Fn::GetAtt"][0];
    expect(s.resources[versionId]!).toMatchObject({ Type: "AWS::Lambda::Version", Properties: { FunctionName: { Ref: eventsId } } });
    const integrations = ofType(s, "AWS::ApiGatewayV2::Integration").filter(
      ([, r]) => JSON.stringify(r.Properties!.IntegrationUri).includes(aliasId),
    );
    expect(integrations).toHaveLength(1);
    expect(integrations[0]![1].Properties!.IntegrationUri).toEqual({ Ref: aliasId });
    const routes = ofType(s, "AWS::ApiGatewayV2::Route").filter(
      ([, r]) => r.Properties!.Target["Fn::Join"]?.[1][1].Ref === integrations[0]![0],
    );
    expect(routes.map(([, r]) => r.Properties!.RouteKey).sort()).toEqual(
      ["DELETE /api/v1/events", "GET /api/v1/events", "POST /api/v1/register"],
    );
    const permissions = ofType(s, "AWS::Lambda::Permission").filter(([, r]) => r.Properties!.FunctionName.Ref === aliasId);
    expect(permissions).toHaveLength(1);
    // The function's own ARN ($LATEST) is not invocable on Managed Instances and is no target.
    const direct = ofType(s, "AWS::ApiGatewayV2::Integration").filter(
      ([, r]) => JSON.stringify(r.Properties!.IntegrationUri) === JSON.stringify({ "Fn::GetAtt": [eventsId, "Arn"] }),
    );
    expect(direct).toEqual([]);
  });

  it("reaches DynamoDB through a gateway endpoint and SQS and CloudWatch Logs through interface endpoints", () => {
    const endpoints = ofType(s, "AWS::EC2::VPCEndpoint").map(([, r]) => [
      r.Properties!.VpcEndpointType,
      r.Properties!.ServiceName["Fn::Join"][1][2],
    ]);
    expect(endpoints.sort()).toEqual([["Gateway", ".dynamodb"], ["Interface", ".logs"], ["Interface", ".sqs"]]);
  });

  it("keeps the alarms and the dashboard on the function", () => {
    expect(alarmNamed(s, "events-throttles").Dimensions).toEqual([{ Name: "FunctionName", Value: { Ref: eventsId } }]);
    s.template.resourceCountIs("AWS::CloudWatch::Dashboard", 1);
  });

  it("passes cdk-nag's AWS Solutions checks", () => {
    expect(nagFindings(s)).toEqual([]);
  });
});

describe("operationsSettingsFromContext", () => {
  const settings = (context: Record<string, unknown>) => operationsSettingsFromContext(new App({ context }).node);

  it("has defaults for an empty context", () => {
    expect(settings({})).toEqual({
      alarmEmail: undefined,
      eventsReservedConcurrency: 500,
      workerMaxConcurrency: 20,
      eventsManagedInstances: false,
      eventsPollsPerEnvironment: 256,
      eventsMaxVCpus: 16,
    });
  });

  it("reads typed cdk.json values and string -c values alike", () => {
    expect(
      settings({ alarmEmail: "a@b.example", eventsReservedConcurrency: 0, workerMaxConcurrency: "50", eventsManagedInstances: true }),
    ).toMatchObject({ alarmEmail: "a@b.example", eventsReservedConcurrency: 0, workerMaxConcurrency: 50, eventsManagedInstances: true });
  });

  it("refuses bad values, naming the key", () => {
    expect(() => settings({ alarmEmail: "ops" })).toThrow(/alarmEmail must be an email address/);
    expect(() => settings({ eventsReservedConcurrency: "-1" })).toThrow(/eventsReservedConcurrency must be an integer from 0/);
    expect(() => settings({ eventsReservedConcurrency: "1.5" })).toThrow(/eventsReservedConcurrency/);
    expect(() => settings({ workerMaxConcurrency: 1 })).toThrow(/workerMaxConcurrency must be an integer from 2 to 1000/);
    expect(() => settings({ eventsManagedInstances: "yes" })).toThrow(/eventsManagedInstances must be true or false/);
    expect(() => settings({ eventsPollsPerEnvironment: 2000 })).toThrow(/eventsPollsPerEnvironment/);
    expect(() => settings({ eventsMaxVCpus: 8 })).toThrow(/eventsMaxVCpus must be an integer from 12/);
  });
});
