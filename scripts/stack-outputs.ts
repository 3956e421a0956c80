/**
 * What `npm run manage` learns from a deployed stack: the table it writes
 * and the host the functions serve, read from the stack's CloudFormation
 * outputs (infra/stack.ts: `TableName`, `RootDomain`, `ApiUrl`), so that the
 * site it prints and the `zuliprc` it writes are the deployment's.
 */
import { CloudFormationClient, DescribeStacksCommand } from "@aws-sdk/client-cloudformation";
import { pushEnvironmentForStack, type SecretReader } from "./push-secret.js";

/** The stack name `cdk deploy` uses without a `stackName` setting (infra/deploy-config.ts). */
export const DEFAULT_STACK_NAME = "Zulip";

/** The part of the CloudFormation client the CLI uses; tests pass a stub. */
export type CloudFormationReader = Pick<CloudFormationClient, "send">;

/** A deployed stack's outputs by key, and the region it lives in. */
export interface DeployedStack {
  stackName: string;
  /** From the stack's ID (an ARN); undefined if it cannot be read from it. */
  region?: string;
  outputs: Record<string, string>;
}

/** The stack cannot be read or is not a deployed Zulip stack: the CLI prints it as `error: …`. */
export class StackLookupError extends Error {}

/** A CloudFormation client in the environment's region (or the profile's when `AWS_REGION` is unset). */
export function cloudFormationClient(env: Record<string, string | undefined>): CloudFormationReader {
  return new CloudFormationClient(env.AWS_REGION ? { region: env.AWS_REGION } : {});
}

/**
 * Reads a stack's outputs with one `DescribeStacks` call.
 * @throws StackLookupError when the stack does not exist (CloudFormation's `ValidationError`), has no
 *   outputs yet (still being created, or rolled back), or lacks the `TableName` output of infra/stack.ts
 */
export async function describeStack(client: CloudFormationReader, stackName: string): Promise<DeployedStack> {
  let stack;
  try {
    const answer = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    stack = answer.Stacks?.[0];
  } catch (e) {
    if ((e as { name?: string }).name === "ValidationError") {
      throw new StackLookupError(`stack '${stackName}': ${(e as Error).message}`);
    }
    throw e;
  }
  if (!stack) throw new StackLookupError(`stack '${stackName}' does not exist`);
  const outputs = Object.fromEntries(
    (stack.Outputs ?? []).flatMap((o) => (o.OutputKey && o.OutputValue !== undefined ? [[o.OutputKey, o.OutputValue]] : [])),
  );
  if (!outputs.TableName) {
    throw new StackLookupError(
      `stack '${stackName}' (${stack.StackStatus ?? "unknown status"}) has no TableName output: is it deployed, and a Zulip stack?`,
    );
  }
  // arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<id>
  const region = stack.StackId?.split(":")[3] || undefined;
  return { stackName, region, outputs };
}

/**
 * The environment to load the CLI's configuration from, for a deployed
 * stack: its table, its host (`RootDomain`, or the host of `ApiUrl`), HTTPS,
 * and its region. Variables set in `env` win for `ROOT_DOMAIN`,
 * `URL_SCHEME` and `AWS_REGION` (a host the stack does not know, such as a
 * CDN in front of it); a `TABLE_NAME` that is not the stack's is refused
 * rather than silently chosen.
 * @throws StackLookupError on that conflict, or when the stack names no host
 */
export function environmentForStack(
  stack: DeployedStack,
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const table = stack.outputs.TableName!;
  if (env.TABLE_NAME && env.TABLE_NAME !== table) {
    throw new StackLookupError(
      `TABLE_NAME=${env.TABLE_NAME} is not the table of stack '${stack.stackName}' (${table}); unset one of them`,
    );
  }
  const rootDomain = env.ROOT_DOMAIN || stack.outputs.RootDomain || hostOf(stack.outputs.ApiUrl);
  if (!rootDomain) throw new StackLookupError(`stack '${stack.stackName}' has neither a RootDomain nor an ApiUrl output`);
  return {
    ...env,
    TABLE_NAME: table,
    ROOT_DOMAIN: rootDomain,
    URL_SCHEME: env.URL_SCHEME || "https",
    AWS_REGION: env.AWS_REGION || stack.region,
  };
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The environment a `manage` run loads its configuration from: `env` as it
 * is, or, with `stackName` (or, when the run is not `--local` and nothing in
 * `env` names a table or an endpoint, the default stack), `env` completed
 * from the deployed stack's outputs ({@link environmentForStack}).
 * @param cloudFormation @default a client in the environment's region
 * @param readSecret reads the push notification service's secret when the stack has one @default Secrets Manager
 * @throws StackLookupError for `--local` with `--stack-name`, a stack that cannot be used, or its push
 *   notification secret (scripts/push-secret.ts) that cannot be read
 */
export async function cliEnvironment(
  options: { local: boolean; stackName?: string },
  env: Record<string, string | undefined>,
  cloudFormation?: CloudFormationReader,
  readSecret?: SecretReader,
): Promise<Record<string, string | undefined>> {
  if (options.local && options.stackName !== undefined) throw new StackLookupError("--local and --stack-name exclude each other");
  const stackName =
    options.stackName ?? (!options.local && !env.TABLE_NAME && !env.DYNAMODB_ENDPOINT ? DEFAULT_STACK_NAME : undefined);
  if (stackName === undefined) return env;
  const stack = await describeStack(cloudFormation ?? cloudFormationClient(env), stackName);
  const stackEnv = environmentForStack(stack, env);
  // With push notifications deployed, the CLI talks to the service as the functions do (scripts/push-secret.ts).
  try {
    return { ...stackEnv, ...(await pushEnvironmentForStack(stack.outputs, stackEnv.AWS_REGION, env, readSecret)) };
  } catch (e) {
    throw new StackLookupError(
      `${(e as Error).message} (the stack's push notification credentials: allow secretsmanager:GetSecretValue on it, ` +
        "or set ZULIP_ORG_KEY in the environment)",
    );
  }
}
