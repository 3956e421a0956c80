import * as ec2 from "aws-cdk-lib/aws-ec2";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";

export interface ManagedEventsCapacityProps {
  /** The `events` function to move onto the capacity provider. */
  fn: lambda.Function;
  /** Long polls one execution environment serves at once (`PerExecutionEnvironmentMaxConcurrency`). */
  pollsPerEnvironment: number;
  /** The most vCPUs the capacity provider may run. */
  maxVCpus: number;
}

/**
 * Memory of an execution environment on Managed Instances, in MB: Lambda's
 * minimum there (2 GB with 1 vCPU), which serves hundreds of idle long polls.
 */
export const MANAGED_EVENTS_MEMORY_MB = 2048;

/**
 * The opt-in that runs the `events` function on Lambda Managed Instances
 * (docs/deploying.md, "Running many clients"): a capacity provider whose EC2
 * instances each hold many long polls in one execution environment, billed
 * as EC2 time plus a management fee instead of per GB-second of waiting.
 *
 * Managed Instances run in a VPC. This one has only isolated subnets (no
 * NAT gateway, no internet route); the function reaches DynamoDB through a
 * gateway endpoint (free) and SQS and CloudWatch Logs through interface
 * endpoints. A Managed Instances function is invoked through a published
 * version, so API Gateway gets the alias `live`, which every deploy moves to
 * the new version.
 */
export class ManagedEventsCapacity extends Construct {
  readonly vpc: ec2.Vpc;
  readonly capacityProvider: lambda.CapacityProvider;
  /** What API Gateway invokes: the alias of the function's current version. */
  readonly alias: lambda.Alias;

  constructor(scope: Construct, id: string, props: ManagedEventsCapacityProps) {
    super(scope, id);
    this.vpc = new ec2.Vpc(this, "Vpc", {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: "Instances", subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 22 }],
      // The default security group is left unused; restricting it needs a custom-resource Lambda.
      restrictDefaultSecurityGroup: false,
    });
    const instances = new ec2.SecurityGroup(this, "Instances", {
      vpc: this.vpc,
      description: "Lambda Managed Instances of the events function: no inbound, HTTPS out",
      allowAllOutbound: false,
    });
    // Isolated subnets have no route out of the VPC: HTTPS to any address reaches only the endpoints
    // (the DynamoDB gateway endpoint's addresses are a regional prefix list, unknown to an env-agnostic synth).
    instances.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), "HTTPS to the VPC endpoints");
    const endpoints = new ec2.SecurityGroup(this, "Endpoints", {
      vpc: this.vpc,
      description: "Interface endpoints of the events VPC: HTTPS from its instances only",
      allowAllOutbound: false,
    });
    endpoints.addIngressRule(instances, ec2.Port.tcp(443), "HTTPS from the Managed Instances");
    this.vpc.addGatewayEndpoint("DynamoDb", { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB });
    for (const [name, service] of [
      ["Sqs", ec2.InterfaceVpcEndpointAwsService.SQS],
      ["Logs", ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS],
    ] as const) {
      this.vpc.addInterfaceEndpoint(name, { service, securityGroups: [endpoints], open: false });
    }

    this.capacityProvider = new lambda.CapacityProvider(this, "CapacityProvider", {
      subnets: this.vpc.isolatedSubnets,
      securityGroups: [instances],
      architectures: [lambda.Architecture.ARM_64],
      maxVCpuCount: props.maxVCpus,
      scalingOptions: lambda.ScalingOptions.auto(),
    });
    const cfn = props.fn.node.defaultChild as lambda.CfnFunction;
    cfn.memorySize = MANAGED_EVENTS_MEMORY_MB;
    this.capacityProvider.addFunction(props.fn, {
      perExecutionEnvironmentMaxConcurrency: props.pollsPerEnvironment,
      executionEnvironmentMemoryGiBPerVCpu: 2,
    });
    this.alias = new lambda.Alias(this, "Live", { aliasName: "live", version: props.fn.currentVersion });

    NagSuppressions.addResourceSuppressions(this.vpc, [
      {
        id: "AwsSolutions-VPC7",
        reason:
          "The VPC only carries the events function's HTTPS calls to DynamoDB, SQS and CloudWatch Logs " +
          "endpoints; every request is already in the API access logs and the function's logs, and flow " +
          "logs would be billed per GB for no further insight.",
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      this.capacityProvider,
      [
        {
          id: "AwsSolutions-IAM4",
          reason:
            "The capacity provider's operator role uses AWSLambdaManagedEC2ResourceOperator, the policy AWS " +
            "maintains for Lambda to launch and retire the instances; it follows the service's needs, " +
            "which a hand-written copy would not.",
          appliesTo: ["Policy::arn:<AWS::Partition>:iam::aws:policy/AWSLambdaManagedEC2ResourceOperator"],
        },
      ],
      true,
    );
  }
}
