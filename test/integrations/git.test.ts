import { describe, expect, it } from "vitest";
import {
  gitBranchWanted,
  gitCommitList,
  gitEventHeader,
  gitItemMessage,
  gitItemTopic,
  gitPushMessage,
  gitQuote,
  gitTagMessage,
  type GitCommit,
} from "../../shared/integrations/git.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookRequest } from "../../shared/integrations/types.js";

function commits(count: number, author = "ada"): GitCommit[] {
  return Array.from({ length: count }, (_, i) => ({ sha: `${i}`.padStart(40, "a"), url: `https://git/c/${i}`, message: `Commit ${i}\n\nbody`, author }));
}

function withQuery(query: Record<string, string>): WebhookRequest {
  return { headers: {}, query, body: "", contentType: "application/json" };
}

describe("gitPushMessage", () => {
  it("lists at most 20 commits, first lines only, then counts the rest", () => {
    const content = gitPushMessage({ user: "ada", branch: "main", compareUrl: "https://git/cmp", commits: commits(23) });
    const lines = content.split("\n");
    expect(lines[0]).toBe("ada [pushed](https://git/cmp) 23 commits to branch main.");
    expect(lines.filter((l) => l.startsWith("* "))).toHaveLength(20);
    expect(lines[2]).toBe("* Commit 0 ([aaaaaaa](https://git/c/0))");
    expect(lines.at(-1)).toBe("[and 3 more commits]");
  });

  it("names committers other than the pusher, the fourth and later as others", () => {
    const mixed = [...commits(3, "bob"), ...commits(2, "cy"), ...commits(2, "ada"), ...commits(1, "dee"), ...commits(1, "eve")];
    const content = gitPushMessage({ user: "ada", branch: "main", compareUrl: null, commits: mixed });
    expect(content.split("\n")[0]).toBe("ada pushed 9 commits to branch main. Commits by bob (3), ada (2), cy (2) and others (2).");
  });

  it("words a single commit, a force push, a deleted branch and a branch pushed without commits", () => {
    expect(gitPushMessage({ user: "ada", branch: "b", compareUrl: "https://x", commits: commits(1), forced: true }).split("\n")[0]).toBe(
      "ada [force pushed](https://x) 1 commit to branch b.",
    );
    expect(gitPushMessage({ user: "ada", branch: "b", compareUrl: "https://x", commits: [], deleted: true })).toBe("ada [deleted](https://x) the branch b.");
    expect(gitPushMessage({ user: "ada", branch: "b", compareUrl: null, commits: [] })).toBe("ada pushed the branch b.");
  });

  it("counts the commits a sender left out of its list", () => {
    const content = gitPushMessage({ user: "ada", branch: "b", compareUrl: null, commits: commits(2), total: 30 });
    expect(content.split("\n")[0]).toBe("ada pushed 30 commits to branch b.");
    expect(content.split("\n").at(-1)).toBe("[and 28 more commits]");
  });
});

describe("gitCommitList", () => {
  it("says more commits exist when the sender truncated the list without a count", () => {
    expect(gitCommitList(commits(1), true)).toBe("* Commit 0 ([aaaaaaa](https://git/c/0))\n[and more commits]");
  });
});

describe("gitItemMessage", () => {
  it("names assignees and branches and quotes the body", () => {
    const text = gitItemMessage({ user: "ada", action: "opened", kind: "PR", number: 4, url: "https://pr", assignees: ["bob", "cy"], fromBranch: "f", toBranch: "main", body: "Hello" });
    expect(text).toBe("ada opened [PR #4](https://pr) from `f` to `main` (assigned to bob and cy):\n\n```quote\nHello\n```");
  });

  it("keeps a title's own final punctuation", () => {
    expect(gitItemMessage({ user: "a", action: "closed", kind: "Issue", number: 1, url: "u", title: "Why?" })).toBe("a closed [Issue #1 Why?](u)");
    expect(gitItemMessage({ user: "a", action: "closed", kind: "Issue", number: 1, url: "u", title: "Fix" })).toBe("a closed [Issue #1 Fix](u).");
  });
});

describe("gitQuote", () => {
  it("fences a body holding code fences with a longer fence", () => {
    expect(gitQuote("a\n```js\nx\n```")).toBe("````quote\na\n```js\nx\n```\n````");
  });
});

describe("topics, filters and headers", () => {
  it("names an item topic `repo / kind #id title`", () => {
    expect(gitItemTopic("zulip", "PR", 12, "Fix it")).toBe("zulip / PR #12 Fix it");
  });

  it("filters branches by exact names from a comma-separated list", () => {
    expect(gitBranchWanted(withQuery({}), "main")).toBe(true);
    expect(gitBranchWanted(withQuery({ branches: "main, dev" }), "dev")).toBe(true);
    expect(gitBranchWanted(withQuery({ branches: "main,development" }), "dev")).toBe(false);
  });

  it("adds a full stop after a tag name unless it ends in punctuation", () => {
    expect(gitTagMessage("ada", "v1", "https://t")).toBe("ada pushed tag [v1](https://t).");
    expect(gitTagMessage("ada", "v1.", null, "removed")).toBe("ada removed tag v1.");
  });

  it("refuses a request without the event header, naming it", () => {
    expect(() => gitEventHeader(withQuery({}), "X-Gitea-Event")).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-Gitea-Event'"));
    expect(gitEventHeader({ ...withQuery({}), headers: { "x-gitea-event": "push" } }, "X-Gitea-Event")).toBe("push");
  });
});
