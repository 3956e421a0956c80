import { DescribeStacksCommand, type DescribeStacksCommandOutput, type StackStatus } from "@aws-sdk/client-cloudformation";
import { describe, expect, it } from "vitest";
import { cliConfig, main } from "../../scripts/manage.js";
import { cliEnvironment, StackLookupError, type CloudFormationReader } from "../../scripts/stack-outputs.js";
import { realmUrl } from "../../shared/domain/email.js";

/**
 * `npm run manage` against a deployed stack: the table, host and region come
 * from the stack's outputs, read through a stubbed CloudFormation client.
 */
const TABLE = "Zulip-DataTableFDBAD0F2-1A2B3C4D5E6F";
const API_HOST = "abc123defg.execute-api.eu-west-1.amazonaws.com";

type Outputs = Record<string, string>;

/** A CloudFormation client that answers DescribeStacks with one stack (or an error), recording the stack names asked for. */
function stubCloudFormation(answer: Outputs | Error, status = "CREATE_COMPLETE"): CloudFormationReader & { asked: string[] } {
  const asked: string[] = [];
  const send = async (command: unknown) => {
    expect(command).toBeInstanceOf(DescribeStacksCommand);
    const name = (command as DescribeStacksCommand).input.StackName!;
    asked.push(name);
    if (answer instanceof Error) throw answer;
    const output: Partial<DescribeStacksCommandOutput> = {
      Stacks: [
        {
          StackName: name,
          StackId: `arn:aws:cloudformation:eu-west-1:123456789012:stack/${name}/0f1e2d3c`,
          StackStatus: status as StackStatus,
          CreationTime: new Date(0),
          Outputs: Object.entries(answer).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
        },
      ],
    };
    return output;
  };
  return { send: send as CloudFormationReader["send"], asked };
}

const customDomainStack: Outputs = {
  ApiUrl: `https://${API_HOST}/`,
  RootDomain: "chat.example.com",
  TableName: TABLE,
  DeferredQueueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/Zulip-DeferredQueue",
};
const executeApiStack: Outputs = { ...customDomainStack, RootDomain: API_HOST };

/** The site of the default organization and of `acme` for a CLI run with this environment. */
async function sites(env: Record<string, string | undefined>, client: CloudFormationReader, stackName?: string) {
  const config = cliConfig(false, await cliEnvironment({ local: false, stackName }, env, client));
  return {
    config,
    root: realmUrl({ string_id: "" }, config),
    acme: realmUrl({ string_id: "acme" }, config),
  };
}

describe("manage against a deployed stack", () => {
  it("reads the default stack Zulip when nothing names a table: its table, host (https) and region", async () => {
    const client = stubCloudFormation(customDomainStack);
    const { config, root, acme } = await sites({}, client);
    expect(client.asked).toEqual(["Zulip"]);
    expect(config).toMatchObject({ TABLE_NAME: TABLE, ROOT_DOMAIN: "chat.example.com", URL_SCHEME: "https", AWS_REGION: "eu-west-1" });
    expect(config.DYNAMODB_ENDPOINT).toBeUndefined();
    expect(root).toBe("https://chat.example.com");
    expect(acme).toBe("https://acme.chat.example.com");
  });

  it("serves the execute-api host of a stack without a custom domain", async () => {
    const { root } = await sites({}, stubCloudFormation(executeApiStack), "ZulipDev");
    expect(root).toBe(`https://${API_HOST}`);
  });

  it("falls back to the host of ApiUrl when the stack has no RootDomain output", async () => {
    const { RootDomain: _, ...outputs } = customDomainStack;
    expect((await sites({}, stubCloudFormation(outputs))).root).toBe(`https://${API_HOST}`);
  });

  it("reads the stack named by --stack-name, even with TABLE_NAME set to its table", async () => {
    const client = stubCloudFormation(customDomainStack);
    const { config } = await sites({ TABLE_NAME: TABLE }, client, "ZulipDev");
    expect(client.asked).toEqual(["ZulipDev"]);
    expect(config.TABLE_NAME).toBe(TABLE);
  });

  it("lets ROOT_DOMAIN, URL_SCHEME and AWS_REGION from the environment override the stack", async () => {
    const env = { ROOT_DOMAIN: "chat.cdn.example.org", URL_SCHEME: "http", AWS_REGION: "eu-central-1" };
    const { config, acme } = await sites(env, stubCloudFormation(customDomainStack));
    expect(config).toMatchObject({ ...env, TABLE_NAME: TABLE });
    expect(acme).toBe("http://acme.chat.cdn.example.org");
  });

  it("asks CloudFormation nothing with --local, TABLE_NAME or DYNAMODB_ENDPOINT and no --stack-name", async () => {
    const client = stubCloudFormation(customDomainStack);
    expect(await cliEnvironment({ local: true }, {}, client)).toEqual({});
    expect(await cliEnvironment({ local: false }, { TABLE_NAME: "t" }, client)).toEqual({ TABLE_NAME: "t" });
    const endpoint = { DYNAMODB_ENDPOINT: "http://127.0.0.1:8000" };
    expect(await cliEnvironment({ local: false }, endpoint, client)).toEqual(endpoint);
    expect(client.asked).toEqual([]);
  });

  it("refuses a TABLE_NAME that is not the stack's, and --local with --stack-name", async () => {
    const client = stubCloudFormation(customDomainStack);
    await expect(cliEnvironment({ local: false, stackName: "Zulip" }, { TABLE_NAME: "other" }, client)).rejects.toThrow(
      new StackLookupError(`TABLE_NAME=other is not the table of stack 'Zulip' (${TABLE}); unset one of them`),
    );
    await expect(cliEnvironment({ local: true, stackName: "Zulip" }, {}, client)).rejects.toThrow(
      "--local and --stack-name exclude each other",
    );
  });

  it("reports a missing stack, and one without outputs, as errors with exit status 1", async () => {
    const missing = Object.assign(new Error("Stack with id Nope does not exist"), { name: "ValidationError" });
    const run = async (client: CloudFormationReader, ...argv: string[]) => {
      const err: string[] = [];
      const code = await main(["list-users", "--realm", "", ...argv], { env: {}, cloudFormation: client, err: (l) => err.push(l) });
      return { code, err };
    };
    expect(await run(stubCloudFormation(missing), "--stack-name", "Nope")).toEqual({
      code: 1,
      err: ["error: stack 'Nope': Stack with id Nope does not exist"],
    });
    expect(await run(stubCloudFormation({}, "ROLLBACK_COMPLETE"))).toEqual({
      code: 1,
      err: ["error: stack 'Zulip' (ROLLBACK_COMPLETE) has no TableName output: is it deployed, and a Zulip stack?"],
    });
  });
});

describe("manage against a stack with push notifications", () => {
  const ORG_ID = "8a3b5c1e-2f4d-4e6a-9b7c-0d1e2f3a4b5c";
  const SECRET_ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:ZulipPushNotifications-AbCdEf";
  const pushStack: Outputs = {
    ...customDomainStack,
    PushNotificationBouncerUrl: "https://push.zulipchat.com",
    PushNotificationsSecretArn: SECRET_ARN,
  };

  it("reads the service's URL from the outputs and the credentials from the secret they name", async () => {
    // Prepare
    const asked: [string, string | undefined][] = [];
    const readSecret = async (id: string, region: string | undefined) => {
      asked.push([id, region]);
      return JSON.stringify({ zulip_org_id: ORG_ID, zulip_org_key: "k".repeat(64) });
    };
    // Act
    const env = await cliEnvironment({ local: false }, {}, stubCloudFormation(pushStack), readSecret);
    // Assess
    expect(asked).toEqual([[SECRET_ARN, "eu-west-1"]]);
    const config = cliConfig(false, env);
    expect(config).toMatchObject({
      PUSH_NOTIFICATION_BOUNCER_URL: "https://push.zulipchat.com",
      ZULIP_ORG_ID: ORG_ID,
      ZULIP_ORG_KEY: "k".repeat(64),
    });
  });

  it("reads no secret for a stack without push notifications, or when ZULIP_ORG_KEY is set", async () => {
    const readSecret = async (): Promise<string> => {
      throw new Error("not expected");
    };
    const plain = await cliEnvironment({ local: false }, {}, stubCloudFormation(customDomainStack), readSecret);
    expect(plain.ZULIP_ORG_KEY).toBeUndefined();
    const own = await cliEnvironment({ local: false }, { ZULIP_ORG_KEY: "mine" }, stubCloudFormation(pushStack), readSecret);
    expect(own.ZULIP_ORG_KEY).toBe("mine");
  });

  it("refuses a secret that is not the stack's JSON", async () => {
    const run = cliEnvironment({ local: false }, {}, stubCloudFormation(pushStack), async () => JSON.stringify({ other: 1 }));
    await expect(run).rejects.toThrow(
      new StackLookupError(
        `secret ${SECRET_ARN} holds no zulip_org_id and zulip_org_key (the stack's push notification credentials: ` +
          "allow secretsmanager:GetSecretValue on it, or set ZULIP_ORG_KEY in the environment)",
      ),
    );
  });
});
