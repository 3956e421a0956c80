import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copySiteFiles } from "../../infra/bundling.js";
import { FUNCTION_MEMORY_MB } from "../../infra/function-memory.js";
import { makeWebDist, TEST_WEB_FILES } from "../support/web-dist.js";
import { synthesizeInChildProcess } from "./synth.js";

/**
 * The `web` function in the synthesized template (without bundling: the
 * bundled synthesis of test/infra/stack.test.ts checks its asset), and the
 * bundling step that puts the built web app into its asset.
 */
describe("the web app's function", () => {
  let template: Record<string, any>;
  let nagFindings: string[];

  beforeAll(async () => {
    ({ template, nagFindings } = await synthesizeInChildProcess({}, { nag: true }));
  }, 600_000);

  const resources = () => Object.entries(template.Resources as Record<string, any>);
  const webFunction = () => {
    const found = resources().filter(
      ([, r]) => r.Type === "AWS::Lambda::Function" && String(r.Properties.Description).startsWith("Zulip web app"),
    );
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it("exists with 128 MB", () => {
    const [, fn] = webFunction();
    expect(fn.Properties.MemorySize).toBe(128);
    expect(FUNCTION_MEMORY_MB.web).toBe(128);
  });

  it("serves GET and HEAD of / and /static/app/{path+}, and the account pages' paths, through its own integration", () => {
    const [fnId] = webFunction();
    const integrations = resources().filter(([, r]) => r.Type === "AWS::ApiGatewayV2::Integration");
    const routeKeys = resources()
      .filter(([, r]) => r.Type === "AWS::ApiGatewayV2::Route")
      .filter(([, r]) => {
        const integrationId = r.Properties.Target["Fn::Join"][1][1].Ref;
        const integration = integrations.find(([id]) => id === integrationId)![1];
        return integration.Properties.IntegrationUri["Fn::GetAtt"]?.[0] === fnId;
      })
      .map(([, r]) => r.Properties.RouteKey)
      .sort();
    // The account pages (sign-up, password reset, email change) are the same page at their links' paths.
    expect(routeKeys).toEqual([
      "GET /",
      "GET /accounts/{page+}",
      "GET /join/{key}",
      "GET /register",
      "GET /static/app/{path+}",
      "HEAD /",
      "HEAD /static/app/{path+}",
    ]);
  });

  it("may write its logs and nothing else (no table, queue or bucket)", () => {
    const [, fn] = webFunction();
    const roleId = fn.Properties.Role["Fn::GetAtt"][0];
    const actions = resources()
      .filter(([, r]) => r.Type === "AWS::IAM::Policy" && r.Properties.Roles.some((role: any) => role.Ref === roleId))
      .flatMap(([, r]) => r.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()));
    expect(actions.sort()).toEqual(["logs:CreateLogStream", "logs:PutLogEvents"]);
  });

  it("has its errors and throttles alarms, and leaves cdk-nag clean", () => {
    const names = resources()
      .filter(([, r]) => r.Type === "AWS::CloudWatch::Alarm")
      .map(([, r]) => String(r.Properties.AlarmName));
    expect(names.filter((n) => n.endsWith("-web-errors") || n.endsWith("-web-throttles"))).toHaveLength(2);
    expect(nagFindings).toEqual([]);
  });
});

describe("copySiteFiles (the web function's asset)", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const temp = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "zs-web-asset-"));
    dirs.push(dir);
    return dir;
  };

  it("copies the build beside the bundle with brotli and gzip forms", () => {
    const dist = makeWebDist();
    dirs.push(dist);
    const target = path.join(temp(), "web");
    copySiteFiles(dist, target);
    const js = "assets/index-Dk3fA9xQ.js";
    expect(readFileSync(path.join(target, js), "utf8")).toBe(TEST_WEB_FILES[js]);
    expect(brotliDecompressSync(readFileSync(path.join(target, `${js}.br`))).toString("utf8")).toBe(TEST_WEB_FILES[js]);
    expect(existsSync(path.join(target, `${js}.gz`))).toBe(true);
    expect(existsSync(path.join(target, "index.html.br"))).toBe(true);
  });

  it("fails, naming `npm run build:web`, when the web app is not built", () => {
    const empty = temp();
    expect(() => copySiteFiles(empty, path.join(temp(), "web"))).toThrow(
      `The web app is not built: ${path.join(empty, "index.html")} is missing. Run \`npm run build:web\` before synthesizing or deploying.`,
    );
  });
});
