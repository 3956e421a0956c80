import { Duration, RemovalPolicy } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { functionCode, type FunctionFolder } from "../bundling.js";

export { PROJECT_ROOT } from "../bundling.js";

/**
 * The Lambda runtime of every function: Node.js 22 (supported by Lambda
 * until 2027); the bundles target it (`target: "node22"`).
 */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;

export interface ServiceFunctionProps {
  /** The Lambda: its entry is `functionEntry(folder)`, its bundling `FUNCTION_BUNDLES[folder]`. */
  folder: FunctionFolder;
  description: string;
  /** Megabytes; Lambda gives CPU in proportion to memory. */
  memorySize: number;
  timeout: Duration;
  environment: Record<string, string>;
  /** Removal policy of the function's log group. */
  logRemovalPolicy: RemovalPolicy;
  /** Days of log retention. @default one month */
  logRetention?: logs.RetentionDays;
  /** Lambda layers of the function (e.g. sharp's native build). @default none */
  layers?: lambda.ILayerVersion[];
  /** A built web app copied into the asset (the `web` function; `functionCode`). @default none */
  siteDir?: string;
}

/**
 * One of the service's Lambdas: its entry (`functionEntry`) bundled as
 * infra/bundling.ts describes, on arm64 (Graviton: about 20%
 * cheaper per GB-second than x86 at the same speed for this workload), with
 * its own log group so that retention is bounded.
 *
 * Its role starts empty except for writing to that one log group (instead
 * of the managed AWSLambdaBasicExecutionRole, which allows creating and
 * writing any log group); callers grant the rest.
 */
export class ServiceFunction extends Construct {
  readonly fn: lambda.Function;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, "Logs", {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy,
    });
    this.role = new iam.Role(this, "Role", {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `Runs ${props.folder}: ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);
    this.fn = new lambda.Function(this, "Function", {
      role: this.role,
      code: functionCode(props.folder, props.siteDir),
      handler: "index.handler",
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      description: props.description,
      environment: {
        // Stack traces in the logs point at the TypeScript sources (costs ~15 ms per cold start).
        NODE_OPTIONS: "--enable-source-maps",
        ...props.environment,
      },
      logGroup: this.logGroup,
      // Modules the bundle leaves external (FUNCTION_BUNDLES) load from these.
      layers: props.layers,
    });
  }
}
