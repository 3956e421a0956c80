import { describe, expect, it } from "vitest";
import { githubIntegration } from "../../shared/integrations/github/github.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { oneMessage as gitMessage, renderFixtureResults, runFixture } from "./fixture-snapshot.js";

/** One fixture of each distinct result, its message checked against the payload by hand. */
const EXPECTED: [number, WebhookResult][] = [
  [0, gitMessage("ping", "public-repo", "GitHub webhook has been successfully configured by TomaszKolek.")],
  [1, gitMessage("star", "Hello-World", "[Codertocat](https://github.com/Codertocat) starred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).")],
  [3, gitMessage("push_commits", "public-repo / feature", "eeshangarg [deleted](https://github.com/eeshangarg/public-repo/compare/2e8cf535fb38...000000000000) the branch feature.")],
  [7, { kind: "ignored", eventType: "push__merge_queue" }],
  [17, gitMessage("commit_comment", "public-repo", "baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b#commitcomment-11056394) on [9049f12](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b):\n\n```quote\nThis is a really good change! :+1:\n```")],
  [18, gitMessage("create", "public-repo", "baxterthehacker created tag 0.0.1.")],
  [19, gitMessage("delete", "public-repo", "baxterthehacker deleted tag simple-tag.")],
  [20, gitMessage("deployment", "public-repo / Deployment on production", "baxterthehacker created new deployment.")],
  [21, gitMessage("deployment_status", "public-repo / Deployment on production", "Deployment changed status to success.")],
  [22, gitMessage("fork", "public-repo", "baxterandthehackers forked [public-repo](https://github.com/baxterandthehackers/public-repo).")],
  [23, gitMessage("issue_comment", "public-repo / issue #2 Spelling error in the README file", "baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/issues/2#issuecomment-99262140) on [issue #2](https://github.com/baxterthehacker/public-repo/issues/2):\n\n```quote\nYou are totally right! I'll get this fixed right away.\n```")],
  [27, gitMessage("issues", "public-repo / issue #2 Spelling error in the README file", "baxterthehacker opened [issue #2](https://github.com/baxterthehacker/public-repo/issues/2):\n\n```quote\nIt looks like you accidentally spelled 'commit' with two 't's.\n```")],
  [33, gitMessage("issue_labeled_or_unlabeled", "testing-gh / issue #9 idk man", "[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9](https://github.com/sbansal1999/testing-gh/issues/9).")],
  [36, gitMessage("issue_milestoned_or_demilestoned", "testing-gh / issue #6 This is a sample issue to test GH Integration Func", "[sbansal1999](https://github.com/sbansal1999) added milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) to [issue #6](https://github.com/sbansal1999/testing-gh/issues/6).")],
  [39, gitMessage("membership", "baxterandthehackers organization", "baxterthehacker added [kdaigle](https://github.com/kdaigle) to the Contractors team.")],
  [41, gitMessage("member", "public-repo", "baxterthehacker added [octocat](https://github.com/octocat) to [public-repo](https://github.com/baxterthehacker/public-repo).")],
  [42, gitMessage("opened_pull_request", "public-repo / PR #1 Update the README with new information", "baxterthehacker opened [PR #1](https://github.com/baxterthehacker/public-repo/pull/1) from `baxterthehacker:changes` to `baxterthehacker:master`:\n\n```quote\nThis is a pretty simple change that we need to pull into master.\n```")],
  [45, gitMessage("updated_pull_request", "public-repo / PR #1 Update the README with new information", "baxterthehacker updated [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).")],
  [46, gitMessage("closed_pull_request", "public-repo / PR #1 Update the README with new information", "baxterthehacker closed without merge [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).")],
  [49, gitMessage("public", "public-repo", "baxterthehacker made the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) public.")],
  [50, gitMessage("gollum", "public-repo / wiki pages", "jasonrudolph:\n* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)\n* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)")],
  [51, gitMessage("watch", "public-repo", "baxterthehacker starred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).")],
  [52, gitMessage("repository", "public-repo", "baxterthehacker created the repository [baxterandthehackers/public-repo](https://github.com/baxterandthehackers/public-repo).")],
  [53, gitMessage("team_add", "public-repo", "The repository [baxterandthehackers/public-repo](https://github.com/baxterandthehackers/public-repo) was added to the team github.")],
  [54, gitMessage("release", "public-repo", "baxterthehacker published release [0.0.1](https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1) for tag 0.0.1.")],
  [56, gitMessage("page_build", "public-repo", "GitHub Pages build, triggered by baxterthehacker, has finished building.")],
  [58, gitMessage("status", "public-repo", "[9049f12](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed its status to success.")],
  [60, gitMessage("pull_request_review", "public-repo / PR #1 Update the README with new information", "baxterthehacker submitted [PR review](https://github.com/baxterthehacker/public-repo/pull/1#pullrequestreview-2626884):\n\n```quote\nLooks great!\n```")],
  [63, gitMessage("pull_request_review_comment", "public-repo / PR #1 Update the README with new information", "baxterthehacker created [PR review comment](https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692):\n\n```quote\nMaybe you should use more emojji on this line.\n```")],
  [65, gitMessage("locked_or_unlocked_pull_request", "public-repo / PR #1 Update the README with new information", "tushar912 has locked [PR #1](https://github.com/tushar912/public-repo/pull/1) as off-topic and limited conversation to collaborators.")],
  [67, gitMessage("pull_request_auto_merge", "public-repo / PR #1 Update the README with new information", "tushar912 has enabled auto merge for [PR #1](https://github.com/tushar912/public-repo/pull/1).")],
  [69, gitMessage("push_tags", "public-repo", "baxterthehacker pushed tag abc.")],
  [73, gitMessage("assigned_or_unassigned_pull_request", "public-repo / PR #1 Update the README with new information", "baxterthehacker assigned baxterthehacker to [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).")],
  [76, gitMessage("pull_request_ready_for_review", "temp-test-github-webhook / PR #2 Test", "**Hypro999** has marked [PR #2](https://github.com/Hypro999/temp-test-github-webhook/pull/2) as ready for review.")],
  [77, gitMessage("pull_request_review_requested", "Scheduler / PR #1 This is just a test commit", "**eeshangarg** requested [showell](https://github.com/showell) for a review on [PR #1](https://github.com/eeshangarg/Scheduler/pull/1).")],
  [80, gitMessage("check_run", "hello-world / checks", "Check [randscape](http://github.com/github/hello-world/runs/4) completed (success). ([d6fde92](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))")],
  [81, gitMessage("team", "team Testing", "**Hypro999** changed the team description to:\n\n```quote\nA temporary team so that I can get some webhook fixtures!\n```")],
  [84, { kind: "ignored", eventType: "check_run" }],
  [85, { kind: "ignored", eventType: "pull_request" }],
  [90, { kind: "ignored", eventType: "pull_request_review" }],
  [91, { kind: "ignored", eventType: "team" }],
  [95, { kind: "ignored", eventType: "push_commits" }],
  [99, { kind: "ignored", eventType: "repository_vulnerability_alert" }],
  [100, { kind: "ignored", eventType: "check_suite" }],
  [101, { kind: "ignored", eventType: "label" }],
  [102, { kind: "ignored", eventType: "meta" }],
  [103, { kind: "ignored", eventType: "milestone" }],
  [104, { kind: "ignored", eventType: "organization" }],
  [105, { kind: "ignored", eventType: "project_card" }],
  [108, gitMessage("discussion", "testing-gh discussion #20: Lets discuss", "sbansal1999 created [discussion #20](https://github.com/sbansal1999/testing-gh/discussions/20) in General:\n\n```quote\n### Lets discuss\nSome random text about which no one cares.\n```")],
  [109, gitMessage("discussion_comment", "testing-gh discussion #20: Lets discuss", "sbansal1999 [commented](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n```quote\nsome random comment\n```")],
  [112, gitMessage("cancelled", "sponsors", "monalisa cancelled their $5 a month subscription.")],
  [113, gitMessage("created", "sponsors", "monalisa subscribed for $5 a month.")],
  [114, gitMessage("pending_cancellation", "sponsors", "monalisa's $5 a month subscription will be cancelled on January 05, 2020.")],
  [115, gitMessage("pending_tier_change", "sponsors", "monalisa's subscription will change from $10 a month to $5 a month on December 30, 2019.")],
  [116, gitMessage("tier_changed", "sponsors", "monalisa changed their subscription from $10 a month to $5 a month.")],
  [117, gitMessage("edited", "sponsors", "monalisa changed who can see their sponsorship from public to private.")],
];

function request(event: string | undefined, body: unknown, query: Record<string, string> = {}): WebhookRequest {
  const headers: Record<string, string> = event === undefined ? {} : { "x-github-event": event };
  return { headers, query, body: JSON.stringify(body), contentType: "application/json" };
}

describeFixtures("github", (fixtures) => {
  it.each(EXPECTED)("fixture %i", (index, expected) => {
    expect(runFixture(githubIntegration, fixtures[index]!)).toEqual(expected);
  });

  it("answers every fixture as the snapshot says", async () => {
    await expect(renderFixtureResults(githubIntegration, fixtures)).toMatchFileSnapshot("./expected/github.md");
  });

  it("ignores a push to a branch outside `branches`, and reports it once the branch is listed", () => {
    const push = fixtureRequest(fixtures[8]!);
    expect(githubIntegration.handle({ ...push, query: { branches: "main, dev" } })).toEqual({ kind: "ignored", eventType: "push_commits" });
    const listed = githubIntegration.handle({ ...push, query: { branches: "main, changes" } });
    expect(listed.kind).toBe("messages");
  });

  it("ignores events of private repositories when asked to", () => {
    const push = fixtureRequest(fixtures[52]!);
    expect(githubIntegration.handle({ ...push, query: { ignore_private_repositories: "true" } })).toEqual({ kind: "ignored", eventType: "repository" });
    expect(githubIntegration.handle(push).kind).toBe("messages");
  });
});

describe("github refusals", () => {
  it("reports an unknown event with its action as unsupported", () => {
    expect(githubIntegration.handle(request("workflow_run", { action: "requested" }))).toEqual({ kind: "unsupported", eventType: "workflow_run:requested" });
    expect(githubIntegration.handle(request("pull_request", { action: "teleported" }))).toEqual({ kind: "unsupported", eventType: "pull_request:teleported" });
    expect(githubIntegration.handle(request("team", { action: "exploded" }))).toEqual({ kind: "unsupported", eventType: "team:exploded" });
  });

  it("refuses a delivery without the event header", () => {
    expect(() => githubIntegration.handle(request(undefined, {}))).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-GitHub-Event'"));
  });

  it("names the missing field of a payload", () => {
    const body = { action: "opened", issue: { number: 1, html_url: "https://x", title: "t", body: null }, sender: { login: "a" } };
    expect(() => githubIntegration.handle(request("issues", body))).toThrow(new WebhookPayloadError('payload["repository"] is missing'));
    expect(() => githubIntegration.handle(request("star", { action: "created", sender: {} }))).toThrow(WebhookPayloadError);
  });

  it("refuses a body that is not JSON", () => {
    expect(() => githubIntegration.handle({ headers: { "x-github-event": "push" }, query: {}, body: "nope", contentType: "application/json" })).toThrow(
      new WebhookPayloadError("Malformed JSON"),
    );
  });

  it("ignores an edit of a comment that left its text unchanged", () => {
    const body = { action: "edited", changes: { body: { from: "same" } }, comment: { body: "same" } };
    expect(githubIntegration.handle(request("issue_comment", body))).toEqual({ kind: "ignored", eventType: "issue_comment" });
  });

  it("reports a sponsorship delivery under its action", () => {
    const body = { action: "cancelled", sender: { login: "mona" }, sponsorship: { tier: { name: "$5 a month" } } };
    expect(githubIntegration.handle(request("sponsorship", body))).toEqual(gitMessage("cancelled", "sponsors", "mona cancelled their $5 a month subscription."));
  });
});
