import { describe, expect, it } from "vitest";
import { gitlabIntegration } from "../../shared/integrations/gitlab/gitlab.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { oneMessage as gitMessage, renderFixtureResults, runFixture } from "./fixture-snapshot.js";

/** One fixture of each distinct result, its message checked against the payload by hand. */
const EXPECTED: [number, WebhookResult][] = [
  [0, gitMessage("Push Hook", "my-awesome-project / tomek", "[[my-awesome-project](https://gitlab.com/tomaszkolek0/my-awesome-project)] Tomasz Kolek [pushed](https://gitlab.com/tomaszkolek0/my-awesome-project/-/compare/5fcdd5551fc3085df79bece2c32b1400802ac407...eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9) 2 commits to branch tomek.\n\n* b ([66abd2d](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/66abd2da28809ffa128ed0447965cf11d7f863a7))\n* c ([eb6ae1e](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))")],
  [9, gitMessage("Tag Push Hook", "my-awesome-project", "Tomasz Kolek pushed tag xyz.")],
  [11, gitMessage("Issue Hook open", "my-awesome-project / issue #1 Issue title", "Tomasz Kolek created [issue #1](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1):\n\n```quote\nIssue description\n```")],
  [21, gitMessage("Issue Hook update", "my-awesome-project / issue #1 Issue title_new", "Tomasz Kolek updated [issue #1](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1).")],
  [24, gitMessage("Issue Hook close", "my-awesome-project / issue #1 Issue title_new", "Tomasz Kolek closed [issue #1](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1).")],
  [26, gitMessage("Issue Hook reopen", "my-awesome-project / issue #1 Issue title_new", "Tomasz Kolek reopened [issue #1](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1).")],
  [28, gitMessage("Note Hook Commit", "testing-zulip-gitlab-integration", "Satyam Bansal [commented](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/commit/82689ddf00fd7bdadb5c2afb3b94bd555edc9d01#note_1406241063) on [82689dd](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/commit/82689ddf00fd7bdadb5c2afb3b94bd555edc9d01):\n\n```quote\nWow what a beautiful commit.\n```")],
  [29, gitMessage("Note Hook MergeRequest", "testing-zulip-gitlab-integration / MR #1 add new-feature", "Satyam Bansal [commented](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/merge_requests/1#note_1406328457) on [MR #1](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/merge_requests/1):\n\n```quote\nI am not sure if this new feature is even required or not.\n```")],
  [32, gitMessage("Note Hook Issue", "testing-zulip-gitlab-integration / issue #1 Add more lines", "Satyam Bansal [commented](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/issues/1#note_1406279810) on [issue #1](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/issues/1):\n\n```quote\nThis is again a random comment.\n```")],
  [35, gitMessage("Note Hook Snippet", "my-awesome-project / snippet #2 test", "Tomasz Kolek [commented](https://gitlab.com/tomaszkolek0/my-awesome-project/snippets/2#note_14172058) on [snippet #2](https://gitlab.com/tomaszkolek0/my-awesome-project/-/snippets/2):\n\n```quote\nNice snippet\n```")],
  [38, gitMessage("Merge Request Hook open", "my-awesome-project / MR #2 NEW MR", "Tomasz Kolek created [MR #2](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/2) from `tomek` to `master`:\n\n```quote\ndescription of merge request\n```")],
  [42, gitMessage("Merge Request Hook close", "my-awesome-project / MR #2 NEW MR", "Tomasz Kolek closed [MR #2](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/2).")],
  [45, gitMessage("Merge Request Hook reopen", "my-awesome-project / MR #1 Update the README with author name", "Eeshan Garg reopened [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).")],
  [46, gitMessage("Merge Request Hook approved", "my-awesome-project / MR #1 Update the README with author name", "Eeshan Garg approved [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).")],
  [47, gitMessage("Merge Request Hook update", "my-awesome-project / MR #3 New Merge Request", "Tomasz Kolek updated [MR #3](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3) (assigned to Tomasz Kolek):\n\n```quote\nupdated desc\n```")],
  [49, gitMessage("Merge Request Hook merge", "my-awesome-project / MR #3 New Merge Request", "Tomasz Kolek merged [MR #3](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3) from `tomek` to `master`.")],
  [50, gitMessage("Wiki Page Hook create", "my-awesome-project", "Tomasz Kolek created [wiki page \"how to\"](https://gitlab.com/tomaszkolek0/my-awesome-project/wikis/how-to).")],
  [51, gitMessage("Wiki Page Hook update", "my-awesome-project", "Tomasz Kolek updated [wiki page \"how to\"](https://gitlab.com/tomaszkolek0/my-awesome-project/wikis/how-to).")],
  [52, gitMessage("Job Hook", "my-awesome-project / master", "Build job_name from test stage was created.")],
  [55, gitMessage("Build Hook", "my-awesome-project / master", "Build job_name from test stage was created.")],
  [58, gitMessage("Pipeline Hook", "onlysomeproject / test/links-in-zulip-pipeline-message", "[Pipeline (22668)](https://gitlab.example.com/group1/onlysomeproject/-/pipelines/22668) changed status to success with build(s):\n* [cleanup:cleanup docker image](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58592) - success\n* [pages](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58591) - success\n  * built artifact: *artifacts.zip* [[Browse](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58591/artifacts/browse)|[Download](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58591/artifacts/download)]\n* [black+pytest:future environment](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58590) - success\n* [docs:anaconda environment](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58589) - success\n  * built artifact: *sphinx-docs.zip* [[Browse](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58589/artifacts/browse)|[Download](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58589/artifacts/download)]\n* [pytest:current environment](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58588) - success\n* [black:current environment](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58587) - success\n* [setup:docker image](https://gitlab.example.com/group1/onlysomeproject/-/jobs/58586) - success.")],
  [62, gitMessage("Test Hook", "public-repo", "Webhook for **public-repo** has been configured successfully! :tada:")],
  [63, { kind: "ignored", eventType: "Push Hook" }],
  [74, gitMessage("Merge Request Hook unapproved", "my-awesome-project / MR #1 Update the README with author name", "Eeshan Garg unapproved [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).")],
];

/** A request as the sender would post it. */
function request(event: string | undefined, body: unknown, query: Record<string, string> = {}): WebhookRequest {
  const headers: Record<string, string> = event === undefined ? {} : { "x-gitlab-event": event };
  return { headers, query, body: JSON.stringify(body), contentType: "application/json" };
}

describeFixtures("gitlab", (fixtures) => {
  it.each(EXPECTED)("fixture %i", (index, expected) => {
    expect(runFixture(gitlabIntegration, fixtures[index]!)).toEqual(expected);
  });

  it("answers every fixture as the snapshot says", async () => {
    await expect(renderFixtureResults(gitlabIntegration, fixtures)).toMatchFileSnapshot("./expected/gitlab.md");
  });

  it("ignores a push to a branch outside `branches`", () => {
    const push = fixtureRequest(fixtures[1]!);
    expect(gitlabIntegration.handle({ ...push, query: { branches: "main,tom" } })).toEqual({ kind: "ignored", eventType: "Push Hook" });
    expect(gitlabIntegration.handle({ ...push, query: { branches: "main,tomek" } }).kind).toBe("messages");
  });
});

describe("gitlab refusals", () => {
  it("reports an unknown event or action as unsupported", () => {
    expect(gitlabIntegration.handle(request("Emoji Hook", {}))).toEqual({ kind: "unsupported", eventType: "Emoji Hook" });
    const body = { object_attributes: { action: "teleport" } };
    expect(gitlabIntegration.handle(request("Merge Request Hook", body))).toEqual({ kind: "unsupported", eventType: "Merge Request Hook teleport" });
  });

  it("refuses a delivery without the event header", () => {
    expect(() => gitlabIntegration.handle(request(undefined, {}))).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-Gitlab-Event'"));
  });

  it("names the missing field of a payload", () => {
    expect(() => gitlabIntegration.handle(request("Issue Hook", {}))).toThrow(new WebhookPayloadError('payload["object_attributes"] is missing'));
    expect(() => gitlabIntegration.handle(request("Note Hook", { object_attributes: {} }))).toThrow(
      new WebhookPayloadError('payload["object_attributes"]["noteable_type"] is missing'),
    );
    const body = { user_name: "a", ref: "refs/heads/main", after: "1", before: "0", project: { name: "p", web_url: "https://x" } };
    expect(() => gitlabIntegration.handle(request("Push Hook", body))).toThrow(new WebhookPayloadError('payload["commits"] is missing'));
  });

  it("reports releases, feature flags, deployments and expiring access tokens", () => {
    const project = { name: "proj", web_url: "https://gl/proj" };
    const release = { action: "create", name: "v1.0", tag: "v1", url: "https://gl/proj/-/releases/v1", description: "Notes", project };
    expect(gitlabIntegration.handle(request("Release Hook", release))).toEqual(
      gitMessage("Release Hook", "proj", "Release [v1.0](https://gl/proj/-/releases/v1) for tag v1 was created.\n\n```quote\nNotes\n```"),
    );
    const flag = { user: { username: "ada" }, object_attributes: { name: "beta", active: false }, project };
    expect(gitlabIntegration.handle(request("Feature Flag Hook", flag))).toEqual(
      gitMessage("Feature Flag Hook", "proj", "ada deactivated the feature flag [beta](https://gl/proj/-/feature_flags)."),
    );
    const deployment = { status: "failed", environment: "production", deployable_url: "https://gl/proj/-/jobs/9", project };
    expect(gitlabIntegration.handle(request("Deployment Hook", deployment))).toEqual(
      gitMessage("Deployment Hook", "proj / production", "The [deployment](https://gl/proj/-/jobs/9) failed."),
    );
    const token = { object_attributes: { name: "ci-token", expires_at: "2025-03-02" }, project };
    expect(gitlabIntegration.handle(request("Resource Access Token Hook", token))).toEqual(
      gitMessage("Resource Access Token Hook", "proj", "The access token [ci-token](https://gl/proj/-/settings/access_tokens) expires on Mar 02, 2025."),
    );
  });

  it("names a system hook delivery as the project hook it mirrors", () => {
    const body = { object_kind: "repository_update" };
    expect(gitlabIntegration.handle(request("System Hook", body))).toEqual({ kind: "unsupported", eventType: "Repository Update Hook" });
  });
});

