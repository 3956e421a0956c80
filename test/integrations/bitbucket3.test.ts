import { describe, expect, it } from "vitest";
import { bitbucket3Integration } from "../../shared/integrations/bitbucket3.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { oneMessage as gitMessage, renderFixtureResults, runFixture } from "./fixture-snapshot.js";

/** One fixture of each distinct result, its message checked against the payload by hand. */
const EXPECTED: [number, WebhookResult][] = [
  [0, gitMessage("diagnostics:ping", "Bitbucket Server Ping", "Congratulations! The Bitbucket Server webhook was configured successfully!")],
  [2, gitMessage("repo:comment:added", "sandbox", "[hypro999](http://139.59.64.214:7990/users/hypro999) commented on [508d1b6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/commits/508d1b67f1f8f3a25f543a030a7a178894aa9907):\n\n```quote\nJust an arbitrary comment on a commit.\n```")],
  [3, gitMessage("repo:comment:edited", "sandbox", "[hypro999](http://139.59.64.214:7990/users/hypro999) edited their comment on [508d1b6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/commits/508d1b67f1f8f3a25f543a030a7a178894aa9907):\n\n```quote\nJust an arbitrary comment on a commit. Nothing to see here...\n```")],
  [4, gitMessage("repo:comment:deleted", "sandbox", "[hypro999](http://139.59.64.214:7990/users/hypro999) deleted their comment on [508d1b6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/commits/508d1b67f1f8f3a25f543a030a7a178894aa9907):\n\n```quote\n~~Just an arbitrary comment on a commit. Nothing to see here...~~\n```")],
  [5, gitMessage("repo:forked", "sandbox", "User Hemanth V. Alluri(login: [hypro999](http://139.59.64.214:7990/users/hypro999)) forked the repository into [sandbox fork](http://139.59.64.214:7990/users/hypro999/repos/sandbox-fork/browse).")],
  [6, gitMessage("repo:modified", "sandbox v2", "[hypro999](http://139.59.64.214:7990/users/hypro999) changed the name of the **sandbox** repo from **sandbox** to **sandbox v2**.")],
  [7, gitMessage("repo:refs_changed", "sandbox / branch2", "[hypro999](http://139.59.64.214:7990/users/hypro999) created branch2 branch.")],
  [15, gitMessage("pr:opened", "sandbox / PR #1 Branch1", "[hypro999](http://139.59.64.214:7990/users/hypro999) opened [PR #1](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/1) from `branch1` to `master`:\n\n```quote\n* Add file2.txt\r\n* Add file3.txt\n```")],
  [20, gitMessage("pr:modified", "sandbox / PR #1 Branch1", "[hypro999](http://139.59.64.214:7990/users/hypro999) modified [PR #1](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/1) from `branch1` to `master` (assigned to [shimura](http://139.59.64.214:7990/users/shimura) for review):\n\n```quote\n* Add file2.txt\n* Add file3.txt\nBoth of these files would be important additions to the project!\n```")],
  [22, gitMessage("pr:deleted", "sandbox / PR #2 Add notes feature.", "[hypro999](http://139.59.64.214:7990/users/hypro999) deleted [PR #2](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/2).")],
  [24, gitMessage("pr:declined", "sandbox / PR #7 Crazy Idea", "[zura](http://139.59.64.214:7990/users/zura) declined [PR #7](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/7).")],
  [25, gitMessage("pr:merged", "sandbox / PR #6 sample_file: Add sample_file.txt.", "[zura](http://139.59.64.214:7990/users/zura) merged [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6).")],
  [26, gitMessage("pr:reviewer:approved", "sandbox / PR #6 sample_file: Add sample_file.txt.", "[zura](http://139.59.64.214:7990/users/zura) approved [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6).")],
  [27, gitMessage("pr:reviewer:unapproved", "sandbox / PR #6 sample_file: Add sample_file.txt.", "[zura](http://139.59.64.214:7990/users/zura) unapproved [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6).")],
  [28, gitMessage("pr:reviewer:needs_work", "sandbox / PR #6 sample_file: Add sample_file.txt.", "[zura](http://139.59.64.214:7990/users/zura) marked [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6) as \"needs work\".")],
  [30, gitMessage("pr:reviewer:updated", "sandbox / PR #1 Branch1", "[hypro999](http://139.59.64.214:7990/users/hypro999) reassigned [PR #1](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/1) to [shimura](http://139.59.64.214:7990/users/shimura).")],
  [35, gitMessage("pr:comment:added", "sandbox / PR #6 sample_file: Add sample_file.txt.", "[zura](http://139.59.64.214:7990/users/zura) commented on [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6):\n\n```quote\nThis seems like a pretty good idea.\n```")],
  [36, gitMessage("pr:comment:edited", "sandbox / PR #6 sample_file: Add sample_file.txt.", "[zura](http://139.59.64.214:7990/users/zura) edited their comment on [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6):\n\n```quote\nThis seems like a pretty good idea. @shimura what do you think?\n```")],
  [37, gitMessage("pr:comment:deleted", "sandbox / PR #6 sample_file: Add sample_file.txt.", "[zura](http://139.59.64.214:7990/users/zura) deleted their comment on [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6):\n\n```quote\n~~This seems like a pretty good idea. @shimura what do you think?~~\n```")],
];

/** A request as the sender would post it. */
function request(event: string | undefined, body: unknown, query: Record<string, string> = {}): WebhookRequest {
  const headers: Record<string, string> = event === undefined ? {} : { "x-event-key": event };
  return { headers, query, body: JSON.stringify(body), contentType: "application/json" };
}

describeFixtures("bitbucket3", (fixtures) => {
  it.each(EXPECTED)("fixture %i", (index, expected) => {
    expect(runFixture(bitbucket3Integration, fixtures[index]!)).toEqual(expected);
  });

  it("answers every fixture as the snapshot says", async () => {
    await expect(renderFixtureResults(bitbucket3Integration, fixtures)).toMatchFileSnapshot("./expected/bitbucket3.md");
  });

  it("ignores a ref change whose only branch is outside `branches`", () => {
    const push = fixtureRequest(fixtures[11]!);
    expect(bitbucket3Integration.handle({ ...push, query: { branches: "dev" } })).toEqual({ kind: "ignored", eventType: "repo:refs_changed" });
  });
});

describe("bitbucket3 refusals", () => {
  it("reports an unknown event key as unsupported", () => {
    expect(bitbucket3Integration.handle(request("mirror:repo_synchronized", {}))).toEqual({ kind: "unsupported", eventType: "mirror:repo_synchronized" });
    expect(bitbucket3Integration.handle(request(undefined, { eventKey: "pr:from_ref_updated" }))).toEqual({ kind: "unsupported", eventType: "pr:from_ref_updated" });
  });

  it("reports an unknown kind of ref change as unsupported", () => {
    const body = { eventKey: "repo:refs_changed", actor: {}, repository: { name: "r" }, changes: [{ ref: { type: "NOTE", displayId: "n" }, type: "ADD" }] };
    expect(bitbucket3Integration.handle(request(undefined, body))).toEqual({ kind: "unsupported", eventType: "repo:refs_changed.NOTE.ADD" });
  });

  it("refuses a delivery that names no event", () => {
    expect(() => bitbucket3Integration.handle(request(undefined, {}))).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-Event-Key'"));
  });

  it("names the missing field of a payload", () => {
    expect(() => bitbucket3Integration.handle(request(undefined, { eventKey: "pr:merged", actor: { name: "a", links: { self: [{ href: "https://a" }] } } }))).toThrow(
      new WebhookPayloadError('payload["pullRequest"] is missing'),
    );
  });
});

