import path from "node:path";
import { fileURLToPath } from "node:url";
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";

/** The repository root: `functions/`, `shared/`, `package-lock.json` live here. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The Lambda runtime of every function: Node.js 22 (supported by Lambda
 * until 2027); the bundles target it (`target: "node22"`).
 */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * Lines prepended to every ESM bundle: Node's ESM has no `require`, but a
 * CommonJS dependency inlined by esbuild may still call it for a Node
 * built-in; `createRequire` gives it one.
 */
const ESM_REQUIRE_BANNER = [
  "import { createRequire as __zsCreateRequire } from 'node:module';",
  "const require = __zsCreateRequire(import.meta.url);",
].join(" ");

export interface ServiceFunctionProps {
  /** Folder below `functions/` holding the `index.ts` that exports `handler`. */
  folder: string;
  description: string;
  /** Megabytes; Lambda gives CPU in proportion to memory. */
  memorySize: number;
  timeout: Duration;
  environment: Record<string, string>;
  /** Removal policy of the function's log group. */
  logRemovalPolicy: RemovalPolicy;
  /** Days of log retention. @default one month */
  logRetention?: logs.RetentionDays;
  /** Modules left out of the bundle, loaded at run time from {@link layers} (native code esbuild cannot bundle). @default none */
  externalModules?: string[];
  /** Lambda layers of the function (e.g. sharp's native build). @default none */
  layers?: lambda.ILayerVersion[];
}

/**
 * One of the service's Lambdas: `functions/<folder>/index.ts` bundled with
 * the locally installed esbuild (never Docker, so `cdk synth` works offline)
 * into a minified ESM file with source maps, on arm64 (Graviton: about 20%
 * cheaper per GB-second than x86 at the same speed for this workload), with
 * its own log group so that retention is bounded.
 *
 * Its role starts empty except for writing to that one log group (instead
 * of the managed AWSLambdaBasicExecutionRole, which allows creating and
 * writing any log group); callers grant the rest.
 *
 * The AWS SDK is bundled rather than taken from the runtime, so the
 * deployed code runs the SDK version the tests ran with.
 */
export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;
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
    this.fn = new NodejsFunction(this, "Function", {
      role: this.role,
      entry: path.join(PROJECT_ROOT, "functions", props.folder, "index.ts"),
      handler: "handler",
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, "package-lock.json"),
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
      layers: props.layers,
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: "node22",
        // Prefer the ESM build of dual packages (smaller, tree-shakable).
        mainFields: ["module", "main"],
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        // Stack traces need the mappings, not the sources: keeps the zip small.
        sourcesContent: false,
        bundleAwsSDK: true,
        externalModules: props.externalModules ?? [],
      },
    });
  }
}
