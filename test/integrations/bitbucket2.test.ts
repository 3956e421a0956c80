import { describe, expect, it } from "vitest";
import { bitbucket2Integration } from "../../shared/integrations/bitbucket2.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { oneMessage as gitMessage, renderFixtureResults, runFixture } from "./fixture-snapshot.js";

/** One fixture of each distinct result, its message checked against the payload by hand. */
const EXPECTED: [number, WebhookResult][] = [
  [0, gitMessage("push", "Repository name / master", "Tomasz [pushed](https://bitbucket.org/kolaszek/repository-name/branch/master) 1 commit to branch master.\n\n* first commit ([84b96ad](https://bitbucket.org/kolaszek/repository-name/commits/84b96adc644a30fd6465b3d196369d880762afed))")],
  [11, gitMessage("fork", "Repository name", "Tomasz forked the repository into [kolaszek/repository-name2](https://bitbucket.org/kolaszek/repository-name2).")],
  [12, gitMessage("commit_comment", "Repository name", "Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/commits/32c4ea19aa3af10acd08e419e2c354941a365d74#comment-3354963) on [32c4ea1](https://bitbucket.org/kolaszek/repository-name/commits/32c4ea19aa3af10acd08e419e2c354941a365d74):\n\n```quote\nNice fix!\n```")],
  [13, gitMessage("change_commit_status", "Repository name", "[System mybuildtool](https://my-build-tool.com/builds/MY-PROJECT/BUILD-777) changed status of [9fec847](https://bitbucket.org/kolaszek/repository-name/commits/9fec847784abb10b2fa567ee63b85bd238955d0e) to SUCCESSFUL.")],
  [14, gitMessage("issue_created", "Repository name / issue #1 Bug", "Tomasz created [issue #1](https://bitbucket.org/kolaszek/repository-name/issues/2/bug) (assigned to Tomasz):\n\n```quote\nSuch a bug\n```")],
  [16, gitMessage("issue_updated", "Repository name / issue #1 Bug", "Tomasz updated [issue #1](https://bitbucket.org/kolaszek/repository-name/issues/2/bug).")],
  [17, gitMessage("issue_commented", "Repository name / issue #1 Bug", "Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/issues/2#comment-28973596) on [issue #1](https://bitbucket.org/kolaszek/repository-name/issues/2/bug).")],
  [19, gitMessage("pull_request_created", "Repository name / PR #1 new commit", "Tomasz created [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1) from `new-branch` to `master` (assigned to Tomasz Kolek):\n\n```quote\ndescription\n```")],
  [22, gitMessage("pull_request_updated", "Repository name / PR #1 new commit", "Tomasz updated [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1) (assigned to Tomasz Kolek):\n\n```quote\ndescription\n```")],
  [23, gitMessage("pull_request_approved", "Repository name / PR #1 new commit", "Tomasz approved [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).")],
  [25, gitMessage("pull_request_unapproved", "Repository name / PR #1 new commit", "Tomasz unapproved [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).")],
  [26, gitMessage("pull_request_rejected", "Repository name / PR #1 new commit", "Tomasz rejected [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).")],
  [27, gitMessage("pull_request_fulfilled", "Repository name / PR #1 new commit", "Tomasz merged [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1) from `new-branch` to `master`.")],
  [28, gitMessage("pull_request_comment_created", "Repository name / PR #1 new commit", "Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/pull-requests/3/_/diff#comment-20576503) on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/3):\n\n```quote\nComment1\n```")],
  [30, gitMessage("pull_request_comment_updated", "Repository name / PR #1 new commit", "Tomasz updated a [comment](https://bitbucket.org/kolaszek/repository-name/pull-requests/3/_/diff#comment-20576503) on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/3):\n\n```quote\nComment1\n```")],
  [32, gitMessage("pull_request_comment_deleted", "Repository name / PR #1 new commit", "Tomasz deleted a [comment](https://bitbucket.org/kolaszek/repository-name/pull-requests/3/_/diff#comment-20576503) on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/3):\n\n```quote\nComment1\n```")],
  [33, gitMessage("repo:updated", "new-name", "eeshangarg changed the website of the **new-name** repo to **http://zulipchat.com**.\neeshangarg changed the name of the **new-name** repo from **test-repo** to **new-name**.\neeshangarg changed the language of the **new-name** repo to **python**.\neeshangarg changed the full name of the **new-name** repo from **webhooktest/test-repo** to **webhooktest/new-name**.\neeshangarg changed the description of the **new-name** repo to **Random description.**")],
  [40, { kind: "ignored", eventType: "push" }],
];

/** A request as the sender would post it. */
function request(event: string | undefined, body: unknown, query: Record<string, string> = {}): WebhookRequest {
  const headers: Record<string, string> = event === undefined ? {} : { "x-event-key": event };
  return { headers, query, body: JSON.stringify(body), contentType: "application/json" };
}

describeFixtures("bitbucket2", (fixtures) => {
  it.each(EXPECTED)("fixture %i", (index, expected) => {
    expect(runFixture(bitbucket2Integration, fixtures[index]!)).toEqual(expected);
  });

  it("answers every fixture as the snapshot says", async () => {
    await expect(renderFixtureResults(bitbucket2Integration, fixtures)).toMatchFileSnapshot("./expected/bitbucket2.md");
  });

  it("leaves out pushes to branches outside `branches` but keeps the push's tags", () => {
    const push = fixtureRequest(fixtures[37]!);
    const result = bitbucket2Integration.handle({ ...push, query: { branches: "dev" } });
    expect(result.kind === "messages" && result.messages.map((m) => m.topic)).toEqual(["Repository name"]);
    expect(bitbucket2Integration.handle({ ...fixtureRequest(fixtures[0]!), query: { branches: "dev" } })).toEqual({ kind: "ignored", eventType: "push" });
  });
});

describe("bitbucket2 refusals", () => {
  it("reports an unknown event key as unsupported", () => {
    expect(bitbucket2Integration.handle(request("repo:transfer", { actor: {} }))).toEqual({ kind: "unsupported", eventType: "repo:transfer" });
    expect(bitbucket2Integration.handle(request("pullrequest:teleported", { pullrequest: {} }))).toEqual({ kind: "unsupported", eventType: "pullrequest:teleported" });
  });

  it("refuses a delivery the payload does not name without the event header", () => {
    expect(() => bitbucket2Integration.handle(request(undefined, { actor: {} }))).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-Event-Key'"));
  });

  it("names the missing field of a payload", () => {
    expect(() => bitbucket2Integration.handle(request(undefined, { push: { changes: [] } }))).not.toThrow();
    expect(() => bitbucket2Integration.handle(request(undefined, { fork: {}, actor: {} }))).toThrow(new WebhookPayloadError('payload["repository"] is missing'));
  });

  it("names an actor without display name or nickname as an unknown user", () => {
    const body = { actor: {}, repository: { name: "r" }, fork: { full_name: "a/b", links: { html: { href: "https://f" } } } };
    expect(bitbucket2Integration.handle(request(undefined, body))).toEqual(gitMessage("fork", "r", "Unknown user forked the repository into [a/b](https://f)."));
  });
});

