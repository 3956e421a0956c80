import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { Match, Template } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from "../../shared/data/table.js";
import { GROUPS, ROUTES } from "../../shared/routes.js";
import { FUNCTION_MEMORY_MB } from "../../infra/function-memory.js";
import { FUNCTION_BUNDLES, type FunctionFolder } from "../../infra/bundling.js";
import { WORKER_TIMEOUT } from "../../infra/stack.js";
import type { DeployConfigInput } from "../../infra/deploy-config.js";
import { lockedSharpVersion, sharpLayerDir } from "../../infra/constructs/sharp-layer.js";
import { JOB_RUNNERS } from "../../functions/worker/jobs.js";
import { synthesizeInChildProcess, type StackAnnotation } from "./synth.js";

interface Synthesized {
  template: Template;
  resources: Record<string, { Type: string; Properties?: Record<string, any>; DependsOn?: string | string[]; DeletionPolicy?: string }>;
  /** Logical ID of the resource at a construct path below the stack (`Deferred/Queue`, `Worker/Function`). */
  id(path: string): string;
  annotations: StackAnnotation[];
  /** The cloud assembly folder, holding the bundled assets (`asset.<hash>`). */
  outdir: string;
}

/**
 * Builds the app as `infra/app.ts` does from the settings `config`, with cdk-nag's AWS Solutions checks,
 * and synthesizes it once, in a child process so the test worker stays responsive: the template and
 * the nag annotations come from the same synthesis.
 * @param bundle run esbuild for the functions as `cdk synth` does (slow); off for variants that only check configuration
 */
async function synthesize(config: DeployConfigInput = {}, bundle = true): Promise<Synthesized> {
  const out = await synthesizeInChildProcess(config, { nag: true, bundle });
  return {
    template: Template.fromJSON(out.template),
    resources: out.template.Resources,
    id: (path) => {
      const id = out.ids[path];
      if (id === undefined) throw new Error(`no resource at ${path}`);
      return id;
    },
    annotations: out.annotations,
    outdir: out.outdir,
  };
}

/** The construct path of a function's Lambda (infra/stack.ts names them). */
function functionPath(folder: FunctionFolder): string {
  if (folder === "fallback") return "FallbackApi/Function";
  if (folder === "worker") return "Worker/Function";
  return `${folder.charAt(0).toUpperCase()}${folder.slice(1)}Api/Function`;
}

/** cdk-nag's AWS Solutions annotations of one level, as `<construct path>: <start of the text>`. */
function nagAnnotations(s: Synthesized, level: StackAnnotation["level"]): string[] {
  return s.annotations
    .filter((a) => a.level === level && /AwsSolutions-.*/.test(a.data))
    .map((e) => `${e.id}: ${e.data.slice(0, 80)}`);
}

/** The IAM policy statements of every identity policy and resource policy in the template. */
function allStatements(s: Synthesized): { owner: string; type: string; statement: Record<string, any> }[] {
  const out: { owner: string; type: string; statement: Record<string, any> }[] = [];
  for (const [owner, resource] of Object.entries(s.resources)) {
    const documents: any[] = [];
    if (resource.Properties?.PolicyDocument) documents.push(resource.Properties.PolicyDocument);
    for (const inline of resource.Properties?.Policies ?? []) documents.push(inline.PolicyDocument);
    for (const doc of documents) {
      for (const statement of doc.Statement) out.push({ owner, type: resource.Type, statement });
    }
  }
  return out;
}

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** The actions granted (Allow) to a function's role, by the function's logical ID. */
function allowedActionsOfFunction(s: Synthesized, functionId: string): string[] {
  const roleId = s.resources[functionId]!.Properties!.Role["Fn::GetAtt"][0];
  return allStatements(s)
    .filter(({ owner, type, statement }) => {
      if (type !== "AWS::IAM::Policy" || statement.Effect !== "Allow") return false;
      return asList(s.resources[owner]!.Properties!.Roles).some((role: any) => role.Ref === roleId);
    })
    .flatMap(({ statement }) => asList(statement.Action as string | string[]));
}

describe("CDK stack (default settings)", () => {
  let s: Synthesized;
  const functionId = (folder: FunctionFolder) => s.id(functionPath(folder));

  // A child process synthesizes, so the worker is not blocked; bundling on a busy machine (2 cores, load 20) takes minutes.
  beforeAll(async () => {
    s = await synthesize();
  }, 900_000);
  afterAll(() => {
    if (s) rmSync(s.outdir, { recursive: true, force: true });
  });

  describe("HTTP API", () => {
    it("is an HTTP API with an auto-deployed $default stage, throttled and access-logged", () => {
      s.template.resourceCountIs("AWS::ApiGatewayV2::Api", 1);
      s.template.hasResourceProperties("AWS::ApiGatewayV2::Api", { ProtocolType: "HTTP" });
      s.template.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
        StageName: "$default",
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 },
        AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp("\\$context.requestId") },
      });
    });

    it("has one route per route-table entry, integrated with its group's Lambda (payload 2.0)", () => {
      const routes = Object.values(s.resources).filter((r) => r.Type === "AWS::ApiGatewayV2::Route");
      expect(routes).toHaveLength(ROUTES.length + 1);
      for (const route of ROUTES) {
        const key = `${route.method} ${route.prefix}${route.path}`;
        const found = routes.filter((r) => r.Properties!.RouteKey === key);
        expect(found, key).toHaveLength(1);
        const target = found[0]!.Properties!.Target;
        expect(target, key).toEqual({ "Fn::Join": ["", ["integrations/", { Ref: expect.any(String) }]] });
        const integration = s.resources[target["Fn::Join"][1][1].Ref]!;
        expect(integration.Properties, key).toMatchObject({
          IntegrationType: "AWS_PROXY",
          PayloadFormatVersion: "2.0",
          IntegrationUri: { "Fn::GetAtt": [functionId(route.group), "Arn"] },
        });
        // Routes are open at the gateway: the Lambdas check HTTP Basic API keys.
        expect(found[0]!.Properties!.AuthorizationType ?? "NONE", key).toBe("NONE");
      }
    });

    it("names path parameters consistently (API Gateway refuses two variables at one level with a 409)", () => {
      const variablesByParent = new Map<string, Set<string>>();
      for (const route of ROUTES) {
        const segments = (route.prefix + route.path).split("/");
        segments.forEach((segment, i) => {
          if (!segment.startsWith("{")) return;
          const parent = segments.slice(0, i).join("/");
          variablesByParent.set(parent, (variablesByParent.get(parent) ?? new Set()).add(segment));
        });
      }
      const conflicts = [...variablesByParent].filter(([, names]) => names.size > 1).map(([p, n]) => `${p}: ${[...n]}`);
      expect(conflicts).toEqual([]);
    });

    it("sends every other request to the fallback Lambda through $default", () => {
      const route = Object.values(s.resources).find(
        (r) => r.Type === "AWS::ApiGatewayV2::Route" && r.Properties!.RouteKey === "$default",
      );
      expect(route).toBeDefined();
      const integration = s.resources[route!.Properties!.Target["Fn::Join"][1][1].Ref]!;
      expect(integration.Properties!.IntegrationUri).toEqual({
        "Fn::GetAtt": [functionId("fallback"), "Arn"],
      });
    });

    it("lets API Gateway invoke each API Lambda, with one permission per function", () => {
      const permissions = Object.values(s.resources).filter((r) => r.Type === "AWS::Lambda::Permission");
      const invoked = permissions.map((p) => p.Properties!.FunctionName["Fn::GetAtt"][0]).sort();
      const expected = [...GROUPS.map((g) => functionId(g)), functionId("fallback")];
      expect(invoked).toEqual(expected.sort());
      for (const p of permissions) expect(p.Properties!.Principal).toBe("apigateway.amazonaws.com");
    });
  });

  describe("DynamoDB table", () => {
    it("matches shared/data/table.ts: string keys, every GSI with ALL projection, TTL on expires_at", () => {
      const table = Object.values(s.resources).find((r) => r.Type === "AWS::DynamoDB::Table")!;
      const p = table.Properties!;
      expect(p.KeySchema).toEqual([
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: "HASH" },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: "RANGE" },
      ]);
      expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
      expect(TTL_ATTRIBUTE).toBe("expires_at");
      expect(p.GlobalSecondaryIndexes).toHaveLength(GLOBAL_INDEXES.length);
      for (const index of GLOBAL_INDEXES) {
        expect(p.GlobalSecondaryIndexes).toContainEqual({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: "HASH" },
            { AttributeName: index.sortKey, KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: index.projection },
        });
      }
      for (const attribute of p.AttributeDefinitions) expect(attribute.AttributeType).toBe("S");
    });

    it("is on-demand with point-in-time recovery, retained and deletion-protected by default", () => {
      s.template.hasResource("AWS::DynamoDB::Table", {
        DeletionPolicy: "Retain",
        UpdateReplacePolicy: "Retain",
        Properties: Match.objectLike({
          BillingMode: "PAY_PER_REQUEST",
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      });
    });
  });

  describe("SQS", () => {
    it("has a deferred-work queue with a DLQ, SSE and a visibility timeout of 6x the worker's", () => {
      const queueId = s.id("Deferred/Queue");
      const dlqId = s.id("Deferred/DeadLetterQueue");
      expect(s.resources[queueId]!.Properties).toMatchObject({
        VisibilityTimeout: WORKER_TIMEOUT.toSeconds() * 6,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { deadLetterTargetArn: { "Fn::GetAtt": [dlqId, "Arn"] }, maxReceiveCount: 5 },
      });
      expect(s.resources[dlqId]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
    });

    it("denies non-TLS requests on both queues", () => {
      const sslDenials = allStatements(s).filter(
        ({ type, statement }) =>
          type === "AWS::SQS::QueuePolicy" &&
          statement.Effect === "Deny" &&
          statement.Condition?.Bool?.["aws:SecureTransport"] === "false",
      );
      expect(sslDenials).toHaveLength(2);
    });
  });

  describe("demo-organization sweep", () => {
    it("is a daily EventBridge schedule putting the worker's sweep job on the deferred-work queue", () => {
      const queueId = s.id("Deferred/Queue");
      const rules = Object.values(s.resources).filter((r) => r.Type === "AWS::Events::Rule");
      // This sweep and the unclaimed-upload sweep.
      expect(rules).toHaveLength(2);
      const rule = s.resources[s.id("DemoSweep/Daily")]!.Properties!;
      expect(rule.ScheduleExpression).toBe("cron(17 3 * * ? *)");
      expect(rule.State).toBe("ENABLED");
      expect(rule.Targets).toHaveLength(1);
      expect(rule.Targets[0].Arn).toEqual({ "Fn::GetAtt": [queueId, "Arn"] });
      const job = JSON.parse(rule.Targets[0].Input) as { kind: string; payload: unknown };
      expect(job).toEqual({ kind: "sweep_demo_organizations", payload: {} });
      expect(Object.keys(JOB_RUNNERS)).toContain(job.kind);
    });

    it("lets only EventBridge, on behalf of that rule, send to the queue; no function gains a permission", () => {
      const ruleId = s.id("DemoSweep/Daily");
      const grants = allStatements(s).filter(
        ({ type, statement }) => type === "AWS::SQS::QueuePolicy" && statement.Effect === "Allow",
      );
      // One grant per schedule: this one and the unclaimed-upload sweep's.
      const attachmentRuleId = s.id("AttachmentSweep/Daily");
      expect(grants).toHaveLength(2);
      for (const { statement } of grants) {
        expect(statement.Principal).toEqual({ Service: "events.amazonaws.com" });
        expect(asList(statement.Action).sort()).toEqual(["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"]);
      }
      expect(grants.map(({ statement }) => statement.Condition)).toEqual(
        expect.arrayContaining([
          { ArnEquals: { "aws:SourceArn": { "Fn::GetAtt": [ruleId, "Arn"] } } },
          { ArnEquals: { "aws:SourceArn": { "Fn::GetAtt": [attachmentRuleId, "Arn"] } } },
        ]),
      );
    });
  });

  describe("unclaimed-upload sweep", () => {
    it("is a daily EventBridge schedule putting the worker's sweep job on the deferred-work queue", () => {
      const queueId = s.id("Deferred/Queue");
      const rule = s.resources[s.id("AttachmentSweep/Daily")]!.Properties!;
      expect(rule.ScheduleExpression).toBe("cron(47 3 * * ? *)");
      expect(rule.Targets).toHaveLength(1);
      expect(rule.Targets[0].Arn).toEqual({ "Fn::GetAtt": [queueId, "Arn"] });
      const job = JSON.parse(rule.Targets[0].Input) as { kind: string; payload: unknown };
      expect(job).toEqual({ kind: "sweep_unclaimed_attachments", payload: {} });
      expect(Object.keys(JOB_RUNNERS)).toContain(job.kind);
    });
  });

  describe("Lambda functions", () => {
    it("has one function per group plus fallback and worker, all arm64 on Node 22 with bounded logs", () => {
      const functions = Object.entries(s.resources).filter(([, r]) => r.Type === "AWS::Lambda::Function");
      expect(functions).toHaveLength(GROUPS.length + 2);
      const expected = [
        ...GROUPS.map((g) => functionId(g)),
        functionId("fallback"),
        functionId("worker"),
      ];
      expect(functions.map(([id]) => id).sort()).toEqual(expected.sort());
      // The functions that touch the files bucket (the files group, the worker) are told its name.
      const fileFunctions = new Set([functionId("files"), functionId("worker")]);
      // Every function that renders messages or serves /external_content/ gets the camo key: all but the web app's and the fallback.
      const camoFunctions = new Set([...GROUPS.filter((g) => g !== "web").map((g) => functionId(g)), functionId("worker")]);
      for (const [id, fn] of functions) {
        const p = fn.Properties!;
        expect(p.Architectures, id).toEqual(["arm64"]);
        expect(p.Runtime, id).toBe("nodejs22.x");
        expect(p.Handler, id).toBe("index.handler");
        expect(p.MemorySize, id).toBeGreaterThanOrEqual(128);
        expect(p.MemorySize, id).toBeLessThanOrEqual(1024);
        expect(Object.keys(p.Environment.Variables).sort(), id).toEqual(
          [
            "DEFERRED_QUEUE_URL",
            "LOG_LEVEL",
            "NODE_OPTIONS",
            "ROOT_DOMAIN",
            "TABLE_NAME",
            "URL_SCHEME",
            ...(fileFunctions.has(id) ? ["FILES_BUCKET"] : []),
            ...(camoFunctions.has(id) ? ["CAMO_KEY"] : []),
          ].sort(),
        );
        // The key's value is resolved from Secrets Manager at deploy time: the template holds a reference only.
        if (camoFunctions.has(id)) expect(JSON.stringify(p.Environment.Variables.CAMO_KEY), id).toContain("{{resolve:secretsmanager:");
        expect(p.Environment.Variables.URL_SCHEME).toBe("https");
        const logGroup = s.resources[p.LoggingConfig.LogGroup.Ref]!;
        expect(logGroup.Type).toBe("AWS::Logs::LogGroup");
        expect(logGroup.Properties!.RetentionInDays).toBe(30);
      }
    });

    it("sizes memory from the one table: events at 128 MB, password hashing at 512 MB or more", () => {
      const memory = (folder: FunctionFolder) => s.resources[functionId(folder)]!.Properties!.MemorySize as number;
      for (const group of GROUPS) expect(memory(group), group).toBe(FUNCTION_MEMORY_MB[group]);
      expect(memory("fallback")).toBe(FUNCTION_MEMORY_MB.fallback);
      expect(memory("worker")).toBe(FUNCTION_MEMORY_MB.worker);
      expect(memory("events")).toBe(128);
      expect(memory("unauthenticated")).toBeGreaterThanOrEqual(512);
    });

    it("gives every function its own bundle, with KaTeX beside it exactly for the functions that render math", () => {
      const folders: FunctionFolder[] = [...GROUPS, "fallback", "worker"];
      const keys = new Set<string>();
      for (const folder of folders) {
        const key = String(s.resources[functionId(folder)]!.Properties!.Code.S3Key);
        keys.add(key);
        const asset = path.join(s.outdir, `asset.${key.replace(/\.zip$/, "")}`);
        expect(existsSync(path.join(asset, "index.mjs")), folder).toBe(true);
        expect(s.resources[functionId(folder)]!.Properties!.Handler, folder).toBe("index.handler");
        expect(existsSync(path.join(asset, "node_modules/katex/index.js")), folder).toBe(FUNCTION_BUNDLES[folder].lazyModules.includes("katex"));
        // The built web app (here the stand-in of test/support/web-dist.ts) beside the web function's bundle only.
        expect(existsSync(path.join(asset, "web/index.html")), folder).toBe(folder === "web");
      }
      expect(keys.size).toBe(folders.length);
    });

    it("gives API functions 29 s (API Gateway's limit is 30 s) and the worker longer", () => {
      for (const group of GROUPS) {
        expect(s.resources[functionId(group)]!.Properties!.Timeout, group).toBe(29);
      }
      expect(s.resources[functionId("fallback")]!.Properties!.Timeout).toBe(29);
      expect(s.resources[functionId("worker")]!.Properties!.Timeout).toBe(WORKER_TIMEOUT.toSeconds());
    });

    it("defaults ROOT_DOMAIN to the API's own execute-api host", () => {
      const env = s.resources[functionId("unauthenticated")]!.Properties!.Environment.Variables;
      const apiId = s.id("Api/HttpApi");
      expect(env.ROOT_DOMAIN).toEqual({
        "Fn::Join": ["", [{ Ref: apiId }, ".execute-api.", { Ref: "AWS::Region" }, ".", { Ref: "AWS::URLSuffix" }]],
      });
    });

    it("runs the worker from the queue with partial batch failures", () => {
      s.template.resourceCountIs("AWS::Lambda::EventSourceMapping", 1);
      s.template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
        FunctionName: { Ref: functionId("worker") },
        EventSourceArn: {
          "Fn::GetAtt": [s.id("Deferred/Queue"), "Arn"],
        },
        FunctionResponseTypes: ["ReportBatchItemFailures"],
      });
    });
    it("gives sharp's Linux arm64 layer to the files group and the worker only (the functions that decode images)", () => {
      const layers = Object.entries(s.resources).filter(([, r]) => r.Type === "AWS::Lambda::LayerVersion");
      expect(layers).toHaveLength(1);
      const [layerId, layer] = layers[0]!;
      expect(layer.Properties).toMatchObject({ CompatibleArchitectures: ["arm64"], CompatibleRuntimes: ["nodejs22.x"] });
      const withLayer = Object.entries(s.resources)
        .filter(([, r]) => r.Type === "AWS::Lambda::Function" && r.Properties!.Layers !== undefined)
        .map(([id, r]) => [id, r.Properties!.Layers]);
      expect(withLayer.sort()).toEqual(
        [functionId("files"), functionId("worker")].sort().map((id) => [id, [{ Ref: layerId }]]),
      );
      // The layer's folder: sharp at the locked version with its arm64 binaries, under nodejs/node_modules.
      const dir = path.join(sharpLayerDir(), "nodejs", "node_modules");
      expect(JSON.parse(readFileSync(path.join(dir, "sharp", "package.json"), "utf8")).version).toBe(lockedSharpVersion());
      expect(existsSync(path.join(dir, "@img", "sharp-linux-arm64"))).toBe(true);
      expect(existsSync(path.join(dir, "@img", "sharp-libvips-linux-arm64"))).toBe(true);
      expect(existsSync(path.join(dir, "@img", "sharp-linux-x64"))).toBe(false);
    });

    it("bundles sharp into no function (it is external where the layer provides it)", () => {
      for (const fn of ["files", "worker", "messages"] as const) {
        const key = s.resources[functionId(fn)]!.Properties!.Code.S3Key as string;
        const bundle = readFileSync(path.join(s.outdir, `asset.${key.replace(/\.zip$/, "")}`, "index.mjs"), "utf8");
        // sharp's own loader names its platform packages; a bundle holding sharp would contain it.
        expect(bundle.includes("sharp-libvips"), functionId(fn)).toBe(false);
      }
    });
  });

  describe("IAM", () => {
    it("never allows a wildcard action (only the SSL-only queue policies deny sqs:*)", () => {
      for (const { owner, statement } of allStatements(s)) {
        const actions = asList(statement.Action as string | string[]);
        const wildcards = actions.filter((a) => a === "*" || /^[a-z0-9-]+:\*$/i.test(a));
        if (statement.Effect === "Allow") expect(wildcards, owner).toEqual([]);
      }
    });

    it("uses no AWS managed policies", () => {
      for (const [id, r] of Object.entries(s.resources)) {
        if (r.Type === "AWS::IAM::Role") expect(r.Properties!.ManagedPolicyArns, id).toBeUndefined();
      }
    });

    it("grants API groups item access and SendMessage, the worker consume, the fallback and the web app's files nothing", () => {
      const itemActions = [
        "dynamodb:BatchGetItem",
        "dynamodb:BatchWriteItem",
        "dynamodb:ConditionCheckItem",
        "dynamodb:DeleteItem",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:Query",
        "dynamodb:UpdateItem",
      ];
      for (const group of GROUPS.filter((g) => g !== "web")) {
        const actions = allowedActionsOfFunction(s, functionId(group));
        expect(actions, group).toEqual(expect.arrayContaining([...itemActions, "sqs:SendMessage"]));
        expect(actions, group).not.toContain("sqs:ReceiveMessage");
        expect(actions, group).not.toContain("dynamodb:Scan");
      }
      const worker = allowedActionsOfFunction(s, functionId("worker"));
      expect(worker).toEqual(expect.arrayContaining([...itemActions, "sqs:ReceiveMessage", "sqs:DeleteMessage"]));
      const fallback = allowedActionsOfFunction(s, functionId("fallback"));
      expect(fallback.filter((a) => !a.startsWith("logs:"))).toEqual([]);
      expect(fallback.sort()).toEqual(["logs:CreateLogStream", "logs:PutLogEvents"]);
      expect(allowedActionsOfFunction(s, functionId("web")).sort()).toEqual(["logs:CreateLogStream", "logs:PutLogEvents"]);
    });

    it("keeps files in one private, SSL-only, encrypted bucket that only the files group and the worker touch", () => {
      const buckets = Object.values(s.resources).filter((r) => r.Type === "AWS::S3::Bucket");
      expect(buckets).toHaveLength(1);
      const bucket = buckets[0]!.Properties!;
      expect(bucket.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe("AES256");
      expect(bucket.VersioningConfiguration).toBeUndefined();
      expect(bucket.LifecycleConfiguration.Rules).toEqual([
        expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: "Enabled" }),
      ]);
      const policy = Object.values(s.resources).find((r) => r.Type === "AWS::S3::BucketPolicy")!;
      expect(policy.Properties!.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
        ]),
      );
      const touching = ([...GROUPS, "worker"] as FunctionFolder[]).filter((fn) =>
        allowedActionsOfFunction(s, functionId(fn)).some((a) => a.startsWith("s3:")),
      );
      expect(touching.sort()).toEqual(["files", "worker"]);
      for (const fn of ["files", "worker"] as const) {
        const actions = allowedActionsOfFunction(s, functionId(fn)).filter((a) => a.startsWith("s3:"));
        expect(actions.sort()).toEqual(["s3:DeleteObject", "s3:GetObject", "s3:PutObject"]);
        expect(s.resources[functionId(fn)]!.Properties!.Environment.Variables.FILES_BUCKET).toBeDefined();
      }
    });

    it("scopes table access to the table and each named index", () => {
      const tableId = s.id("Data/Table");
      const tableArn = { "Fn::GetAtt": [tableId, "Arn"] };
      const dynamoStatements = allStatements(s).filter(({ statement }) =>
        asList(statement.Action as string | string[]).some((a) => a.startsWith("dynamodb:")),
      );
      expect(dynamoStatements.length).toBeGreaterThan(0);
      for (const { statement } of dynamoStatements) {
        expect(statement.Resource).toEqual([
          tableArn,
          ...GLOBAL_INDEXES.map((i) => ({ "Fn::Join": ["", [tableArn, `/index/${i.name}`]] })),
        ]);
      }
    });
  });

  it("outputs the API URL, table name and queue URL", () => {
    const outputs = s.template.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(["ApiUrl", "TableName", "DeferredQueueUrl"]));
  });

  it("has no reference cycle between resources", () => {
    const refs = (value: unknown, out: Set<string>): Set<string> => {
      if (Array.isArray(value)) value.forEach((v) => refs(v, out));
      else if (value && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) {
          if (k === "Ref" && typeof v === "string" && v in s.resources) out.add(v);
          else if (k === "Fn::GetAtt") out.add(Array.isArray(v) ? v[0] : String(v).split(".")[0]);
          else refs(v, out);
        }
      }
      return out;
    };
    const edges = new Map(
      Object.entries(s.resources).map(([id, r]) => {
        const deps = refs(r.Properties, new Set());
        for (const d of asList(r.DependsOn ?? [])) deps.add(d);
        return [id, deps];
      }),
    );
    const state = new Map<string, "visiting" | "done">();
    const cycles: string[] = [];
    const visit = (id: string, trail: string[]) => {
      if (state.get(id) === "visiting") cycles.push([...trail, id].join(" -> "));
      if (state.has(id)) return;
      state.set(id, "visiting");
      for (const d of edges.get(id) ?? []) visit(d, [...trail, id]);
      state.set(id, "done");
    };
    for (const id of edges.keys()) visit(id, []);
    expect(cycles).toEqual([]);
  });

  it("passes cdk-nag's AWS Solutions checks (suppressions carry reasons in code)", () => {
    expect(nagAnnotations(s, "error")).toEqual([]);
    expect(nagAnnotations(s, "warning")).toEqual([]);
  });
});

describe("CDK stack with a custom domain, for a dev stack", () => {
  let s: Synthesized;
  const functionId = (folder: FunctionFolder) => s.id(functionPath(folder));

  beforeAll(async () => {
    s = await synthesize(
      {
        rootDomain: "Chat.Example.com",
        certificateArn: "arn:aws:acm:eu-west-1:123456789012:certificate/abc",
        destroyOnRemoval: true,
        apiRateLimit: 50,
        bigBlueButton: { url: "https://bbb.example.com/bigbluebutton/", secretName: "zulip/bigbluebutton" },
      },
      false,
    );
  }, 600_000);

  it("serves the root domain and the organization subdomains, mapped to the $default stage", () => {
    s.template.resourceCountIs("AWS::ApiGatewayV2::DomainName", 2);
    for (const name of ["chat.example.com", "*.chat.example.com"]) {
      s.template.hasResourceProperties("AWS::ApiGatewayV2::DomainName", {
        DomainName: name,
        DomainNameConfigurations: [Match.objectLike({ CertificateArn: "arn:aws:acm:eu-west-1:123456789012:certificate/abc" })],
      });
    }
    s.template.resourceCountIs("AWS::ApiGatewayV2::ApiMapping", 2);
    expect(Object.keys(s.template.toJSON().Outputs)).toEqual(
      expect.arrayContaining(["RootDomainTarget", "OrgSubdomainsTarget"]),
    );
  });

  it("sets ROOT_DOMAIN to the configured domain on every function", () => {
    const functions = Object.values(s.resources).filter((r) => r.Type === "AWS::Lambda::Function");
    expect(functions).toHaveLength(GROUPS.length + 2);
    for (const fn of functions) expect(fn.Properties!.Environment.Variables.ROOT_DOMAIN).toBe("chat.example.com");
  });

  it("tells the realm and events functions alone the BigBlueButton server, its secret as a Secrets Manager reference", () => {
    const functions = Object.entries(s.resources).filter(([, r]) => r.Type === "AWS::Lambda::Function");
    const told = functions.filter(([, fn]) => fn.Properties!.Environment.Variables.BIGBLUEBUTTON_URL !== undefined).map(([id]) => id);
    expect(told.sort()).toEqual([functionId("events"), functionId("realm")].sort());
    for (const id of told) {
      expect(s.resources[id]!.Properties!.Environment.Variables).toMatchObject({
        BIGBLUEBUTTON_URL: "https://bbb.example.com/bigbluebutton/",
        BIGBLUEBUTTON_SECRET: "{{resolve:secretsmanager:zulip/bigbluebutton:SecretString:::}}",
      });
    }
    for (const [id, fn] of functions) expect(fn.Properties!.Environment.Variables.BIGBLUEBUTTON_SECRET === undefined, id).toBe(!told.includes(id));
  });

  it("deletes data with the stack when destroyOnRemoval is set", () => {
    s.template.hasResource("AWS::DynamoDB::Table", {
      DeletionPolicy: "Delete",
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    s.template.allResources("AWS::SQS::Queue", { DeletionPolicy: "Delete" });
    s.template.allResources("AWS::Logs::LogGroup", { DeletionPolicy: "Delete" });
  });

  it("applies the settings' throttling", () => {
    s.template.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 400 },
    });
  });

  it("passes cdk-nag's AWS Solutions checks", () => {
    expect(nagAnnotations(s, "error")).toEqual([]);
  });
});
