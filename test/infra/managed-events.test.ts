import { beforeAll, describe, expect, it } from "vitest";
import { MANAGED_EVENTS_MEMORY_MB } from "../../infra/constructs/managed-events.js";
import { alarmNamed, nagFindings, ofType, synthesize, type Synthesized } from "./operations-synth.js";

describe("events on Lambda Managed Instances (opt-in)", () => {
  let s: Synthesized;
  let eventsId: string;

  beforeAll(async () => {
    s = await synthesize({ eventsManagedInstances: true, eventsPollsPerEnvironment: 300, eventsMaxVCpus: 24, accountConcurrencyQuota: 1000 });
    eventsId = s.id("EventsManagedApi/Function");
  }, 600_000);

  it("creates an arm64 capacity provider in the isolated subnets of its own VPC, bounded in vCPUs", () => {
    const providers = ofType(s, "AWS::Lambda::CapacityProvider");
    expect(providers).toHaveLength(1);
    const p = providers[0]![1].Properties!;
    expect(p.InstanceRequirements).toEqual({ Architectures: ["arm64"] });
    expect(p.CapacityProviderScalingConfig).toEqual({ MaxVCpuCount: 24, ScalingMode: "Auto" });
    // The VPC's only subnets: isolated ones (no NAT or internet gateway below).
    const subnets = ofType(s, "AWS::EC2::Subnet").map(([id]) => ({ Ref: id }));
    expect(subnets).toHaveLength(2);
    expect(p.VpcConfig.SubnetIds).toEqual(expect.arrayContaining(subnets));
    expect(p.VpcConfig.SubnetIds).toHaveLength(2);
    s.template.resourceCountIs("AWS::EC2::NatGateway", 0);
    s.template.resourceCountIs("AWS::EC2::InternetGateway", 0);
  });

  it("links the events function to it: 2 GB, many polls per environment, no reservation", () => {
    const fn = s.resources[eventsId]!.Properties!;
    expect(fn.CapacityProviderConfig).toEqual({
      LambdaManagedInstancesCapacityProviderConfig: {
        CapacityProviderArn: { "Fn::GetAtt": [s.id("ManagedEvents/CapacityProvider"), "Arn"] },
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
    const aliasId = s.id("ManagedEvents/Live");
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
      [
        "DELETE /api/v1/events",
        "DELETE /json/events",
        "GET /api/v1/events",
        "GET /json/events",
        "POST /api/v1/register",
        "POST /json/register",
      ],
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
