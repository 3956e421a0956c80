import { describe, expect, it } from "vitest";
import { gogsIntegration } from "../../shared/integrations/gogs.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { oneMessage as gitMessage, renderFixtureResults, runFixture } from "./fixture-snapshot.js";

/** One fixture of each distinct result, its message checked against the payload by hand. */
const EXPECTED: [number, WebhookResult][] = [
  [0, gitMessage("push", "try-git / master", "john [pushed](http://localhost:3000/john/try-git/compare/479e6b772b7fba19412457483f50b201286d0103...d8fce16c72a2ff56a5afc8a08645a6ce45491794) 1 commit to branch master. Commits by John (1).\n\n* Webhook Test ([d8fce16](http://localhost:3000/john/try-git/commit/d8fce16c72a2ff56a5afc8a08645a6ce45491794))")],
  [6, gitMessage("create", "try-git / my_feature", "john created [my_feature](http://localhost:3000/john/try-git/src/my_feature) branch.")],
  [7, gitMessage("pull_request", "try-git / PR #1 Title Text for Pull Request", "john opened [PR #1](http://localhost:3000/john/try-git/pulls/1) from `feature` to `master`.")],
  // The topic carries the pull request's server-wide `id` (1349), the message its `number` (2), as Zulip's do.
  [11, gitMessage("pull_request", "test / PR #1349 reopened", "kostekIV reopened [PR #2](https://try.gogs.io/kostekIV/test/pulls/2) from `c` to `master`.")],
  [15, gitMessage("issues", "test / issue #3 New test issue", "kostekIV opened [Issue #3](https://try.gogs.io/kostekIV/test/issues/3):\n\n```quote\nTest\n```")],
  [20, gitMessage("issue_comment", "test / issue #3 New test issue", "kostekIV [commented](https://try.gogs.io/kostekIV/test/issues/3#issuecomment-3635) on [Issue #3](https://try.gogs.io/kostekIV/test/issues/3):\n\n```quote\nTest comment\n```")],
  [22, gitMessage("release", "zulip_test / v1.4 Title", "cestrell published release [Title](https://try.gogs.io/cestrell/zulip_test) for tag v1.4.")],
  [23, { kind: "ignored", eventType: "push" }],
];

/** A request as the sender would post it. */
function request(event: string | undefined, body: unknown, query: Record<string, string> = {}): WebhookRequest {
  const headers: Record<string, string> = event === undefined ? {} : { "x-gogs-event": event };
  return { headers, query, body: JSON.stringify(body), contentType: "application/json" };
}

describeFixtures("gogs", (fixtures) => {
  it.each(EXPECTED)("fixture %i", (index, expected) => {
    expect(runFixture(gogsIntegration, fixtures[index]!)).toEqual(expected);
  });

  it("answers every fixture as the snapshot says", async () => {
    await expect(renderFixtureResults(gogsIntegration, fixtures)).toMatchFileSnapshot("./expected/gogs.md");
  });

  it("ignores a push to a branch outside `branches`", () => {
    const push = fixtureRequest(fixtures[1]!);
    expect(gogsIntegration.handle({ ...push, query: { branches: "main,dev" } })).toEqual({ kind: "ignored", eventType: "push" });
    expect(gogsIntegration.handle({ ...push, query: { branches: "main,master" } }).kind).toBe("messages");
  });
});

describe("gogs refusals", () => {
  it("reports an unknown event as unsupported", () => {
    expect(gogsIntegration.handle(request("fork", {}))).toEqual({ kind: "unsupported", eventType: "fork" });
  });

  it("refuses a delivery without the event header", () => {
    expect(() => gogsIntegration.handle(request(undefined, {}))).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-Gogs-Event'"));
  });

  it("names the missing field of a payload", () => {
    const body = { action: "opened", repository: { name: "r", html_url: "https://x" } };
    expect(() => gogsIntegration.handle(request("pull_request", body))).toThrow(new WebhookPayloadError('payload["pull_request"] is missing'));
  });
});

