import { describe, expect, it } from "vitest";
import { azuredevopsIntegration } from "../../shared/integrations/azuredevops.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { oneMessage as gitMessage, renderFixtureResults, runFixture } from "./fixture-snapshot.js";

/** One fixture of each distinct result, its message checked against the payload by hand. */
const EXPECTED: [number, WebhookResult][] = [
  [0, gitMessage("git.push", "test-zulip / main", "Yuro Itaki [pushed](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/branchCompare?baseVersion=GC51515957669f93c543df09f8f3e7f47c3613c879&targetVersion=GCb0ce2f2009c3c87dbefadf61d7eb2c0697a6f369&_a=files) 1 commit to branch main.\n\n* Modify readme ([b0ce2f2](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/commit/b0ce2f2009c3c87dbefadf61d7eb2c0697a6f369))")],
  [2, { kind: "ignored", eventType: "git.push" }],
  [8, gitMessage("git.pullrequest.created", "test-zulip / PR #1 Add PR request", "Yuro Itaki created [PR #1 Add PR request](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/1) from `dev` to `main`:\n\n```quote\nAdd PR request\n```")],
  [10, gitMessage("git.pullrequest.merged", "test-zulip / PR #1 Add PR request", "Yuro Itaki merged [PR #1 Add PR request](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/1) from `dev` to `main`.")],
  [11, { kind: "ignored", eventType: "git.pullrequest.merged" }],
  [12, gitMessage("git.pullrequest.updated", "test-zulip / PR #2 Raised 2nd PR!", "Yuro Itaki updated [PR #2 Raised 2nd PR!](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/2):\n\n```quote\nYuro Itaki updated the source branch of [pull request 2](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/2) (Raised 2nd PR!) in [test-zulip](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/)\r\nRaised 2nd PR!\n```")],
];

/** A request as Azure DevOps would post it (the event is in the body). */
function request(body: unknown): WebhookRequest {
  return { headers: {}, query: {}, body: JSON.stringify(body), contentType: "application/json" };
}

describeFixtures("azuredevops", (fixtures) => {
  it.each(EXPECTED)("fixture %i", (index, expected) => {
    expect(runFixture(azuredevopsIntegration, fixtures[index]!)).toEqual(expected);
  });

  it("answers every fixture as the snapshot says", async () => {
    await expect(renderFixtureResults(azuredevopsIntegration, fixtures)).toMatchFileSnapshot("./expected/azuredevops.md");
  });

  it("ignores a push to a branch outside `branches`", () => {
    const push = fixtureRequest(fixtures[0]!);
    expect(azuredevopsIntegration.handle({ ...push, query: { branches: "dev" } })).toEqual({ kind: "ignored", eventType: "git.push" });
    expect(azuredevopsIntegration.handle({ ...push, query: { branches: "dev,main" } }).kind).toBe("messages");
  });
});

describe("azuredevops refusals", () => {
  it("reports an unknown event type as unsupported", () => {
    expect(azuredevopsIntegration.handle(request({ eventType: "build.complete" }))).toEqual({ kind: "unsupported", eventType: "build.complete" });
  });

  it("names the missing field of a payload", () => {
    expect(() => azuredevopsIntegration.handle(request({}))).toThrow(new WebhookPayloadError('payload["eventType"] is missing'));
    expect(() => azuredevopsIntegration.handle(request({ eventType: "git.push", resource: { refUpdates: [] } }))).toThrow(
      new WebhookPayloadError('payload["resource"]["refUpdates"] is empty'),
    );
  });
});

