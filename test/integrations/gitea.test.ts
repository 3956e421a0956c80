import { describe, expect, it } from "vitest";
import { giteaIntegration } from "../../shared/integrations/gitea.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { oneMessage as gitMessage, renderFixtureResults, runFixture } from "./fixture-snapshot.js";

/** One fixture of each distinct result, its message checked against the payload by hand. */
const EXPECTED: [number, WebhookResult][] = [
  [0, gitMessage("push", "test / d", "kostekIV [pushed](https://try.gitea.io/kostekIV/test/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...2ec0c971d04723523aa20f2b378f8b419b47d4ec) 5 commits to branch d.\n\n* commit ([2ec0c97](https://try.gitea.io/kostekIV/test/commit/2ec0c971d04723523aa20f2b378f8b419b47d4ec))\n* commit ([6cb1701](https://try.gitea.io/kostekIV/test/commit/6cb1701c8b0114ad716f4cd49153076e7109cb85))\n* commit ([6773eab](https://try.gitea.io/kostekIV/test/commit/6773eabc0778a3e38997c06a13f5f0c48b67e5dc))\n* commit ([337402c](https://try.gitea.io/kostekIV/test/commit/337402cf675ce7082ddcd23d06a116c85241825a))\n* commit ([0a38cad](https://try.gitea.io/kostekIV/test/commit/0a38cad3fac3a13bb78b738d13f15ce9cc3343fa))")],
  [1, gitMessage("create", "test / test-branch", "kostekIV created [test-branch](https://try.gitea.io/kostekIV/test/src/test-branch) branch.")],
  [2, gitMessage("pull_request", "test / PR #1905 New pr", "kostekIV opened [PR #4](https://try.gitea.io/kostekIV/test/pulls/4) from `test-branch` to `master`.")],
  [8, gitMessage("issues", "test / issue #3 Test issue", "kostekIV opened [Issue #3](https://try.gitea.io/kostekIV/test/issues/3):\n\n```quote\nTest body\n```")],
  [13, gitMessage("issue_comment", "test / issue #3 Test issue", "kostekIV [commented](https://try.gitea.io/kostekIV/test/issues/3#issuecomment-24400) on [Issue #3](https://try.gitea.io/kostekIV/test/issues/3):\n\n```quote\ntest comment\n```")],
  [16, { kind: "ignored", eventType: "push" }],
];

/** A request as the sender would post it. */
function request(event: string | undefined, body: unknown, query: Record<string, string> = {}): WebhookRequest {
  const headers: Record<string, string> = event === undefined ? {} : { "x-gitea-event": event };
  return { headers, query, body: JSON.stringify(body), contentType: "application/json" };
}

describeFixtures("gitea", (fixtures) => {
  it.each(EXPECTED)("fixture %i", (index, expected) => {
    expect(runFixture(giteaIntegration, fixtures[index]!)).toEqual(expected);
  });

  it("answers every fixture as the snapshot says", async () => {
    await expect(renderFixtureResults(giteaIntegration, fixtures)).toMatchFileSnapshot("./expected/gitea.md");
  });

  it("ignores a push to a branch outside `branches`", () => {
    const push = fixtureRequest(fixtures[0]!);
    expect(giteaIntegration.handle({ ...push, query: { branches: "main,dev" } })).toEqual({ kind: "ignored", eventType: "push" });
    expect(giteaIntegration.handle({ ...push, query: { branches: "main,d" } }).kind).toBe("messages");
  });
});

describe("gitea refusals", () => {
  it("reports an unknown event as unsupported", () => {
    expect(giteaIntegration.handle(request("fork", {}))).toEqual({ kind: "unsupported", eventType: "fork" });
  });

  it("refuses a delivery without the event header", () => {
    expect(() => giteaIntegration.handle(request(undefined, {}))).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-Gitea-Event'"));
  });

  it("names the missing field of a payload", () => {
    const body = { action: "opened", repository: { name: "r", html_url: "https://x" } };
    expect(() => giteaIntegration.handle(request("pull_request", body))).toThrow(new WebhookPayloadError('payload["pull_request"] is missing'));
  });
});

