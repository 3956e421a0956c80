/**
 * Bitbucket Server / Data Center (https://zulip.com/integrations/doc/bitbucket3).
 * The event is the payload's `eventKey`, else the `X-Event-Key` header
 * (the test delivery `diagnostics:ping` has only the header). A ref change
 * posts one message per changed ref (`repo / branch`, tags under the
 * repository's name); `branches` drops changes of other branches. Pull
 * requests: `repo / PR #N title`. Facts from Zulip's
 * `zerver/webhooks/bitbucket3/view.py`.
 */
import {
  englishList,
  gitBranchCreatedMessage,
  gitBranchDeletedMessage,
  gitBranchTopic,
  gitBranchWanted,
  gitCommitCommentMessage,
  gitIncludeTitle,
  gitItemMessage,
  gitItemTopic,
  gitQuote,
  gitTagMessage,
} from "./git.js";
import { jsonPayload, type Payload, WebhookPayloadError } from "./payload.js";
import type { Integration, WebhookMessage, WebhookRequest, WebhookResult } from "./types.js";

/** The first `links.self` address of a Bitbucket Server object. */
function selfLink(x: Payload): string {
  const links = x.get("links").get("self").list();
  if (links.length === 0) throw new WebhookPayloadError(`${x.path}["links"]["self"] is empty`);
  return links[0]!.get("href").str();
}

/** `[name](profile)` of a user. */
function userLink(user: Payload): string {
  return `[${user.get("name").str()}](${selfLink(user)})`;
}

const actor = (p: Payload) => userLink(p.get("actor"));

/** Messages, or the name of a change this integration does not know (`repo:refs_changed.MOVE`). */
type Handler = (p: Payload, request: WebhookRequest) => WebhookMessage[] | { unsupported: string };

function ping(): WebhookMessage[] {
  return [{ topic: "Bitbucket Server Ping", content: "Congratulations! The Bitbucket Server webhook was configured successfully!" }];
}

/** A comment on a commit; a deleted comment is shown struck through. */
function commitComment(action: "commented" | "edited their comment" | "deleted their comment"): Handler {
  return (p) => {
    const repo = p.get("repository");
    const sha = p.get("commit").str();
    // The repository's link ends in `browse`: its commits live beside it.
    const commitUrl = `${selfLink(repo).replace(/browse$/, "")}commits/${sha}`;
    const text = p.get("comment").get("text").str();
    const body = action === "deleted their comment" ? `~~${text}~~` : text;
    return [{ topic: repo.get("name").str(), content: gitCommitCommentMessage(actor(p), action, commitUrl, sha, body) }];
  };
}

function forked(p: Payload): WebhookMessage[] {
  const fork = p.get("repository");
  const origin = fork.get("origin").get("name").str();
  const who = `User ${p.get("actor").get("displayName").str()}(login: ${actor(p)})`;
  return [{ topic: origin, content: `${who} forked the repository into [${fork.get("name").str()}](${selfLink(fork)}).` }];
}

/** A repository renamed (the only change Bitbucket Server reports); topic under the new name. */
function modified(p: Payload): WebhookMessage[] {
  const oldName = p.get("old").get("name").str();
  const newName = p.get("new").get("name").str();
  const stop = /[!-/:-@[-`{-~]$/.test(newName) ? "" : ".";
  const content = `${actor(p)} changed the name of the **${oldName}** repo from **${oldName}** to **${newName}**${stop}`;
  return [{ topic: newName, content }];
}

function refChange(p: Payload, change: Payload): WebhookMessage | null {
  const repo = p.get("repository").get("name").str();
  const ref = change.get("ref");
  const name = ref.get("displayId").str();
  const type = change.get("type").str();
  const refType = ref.get("type").str();
  if (refType === "TAG") {
    if (type !== "ADD" && type !== "DELETE") return null;
    return { topic: repo, content: gitTagMessage(actor(p), name, null, type === "ADD" ? "pushed" : "removed") };
  }
  const topic = gitBranchTopic(repo, name);
  if (type === "ADD") return { topic, content: gitBranchCreatedMessage(actor(p), name, null) };
  if (type === "DELETE") return { topic, content: gitBranchDeletedMessage(actor(p), name) };
  if (type === "UPDATE") return { topic, content: `${actor(p)} pushed to branch ${name}. Head is now ${change.get("toHash").str()}.` };
  return null;
}

/** One message per changed ref; branches outside `branches` are left out. */
function refsChanged(p: Payload, request: WebhookRequest): WebhookMessage[] | { unsupported: string } {
  const messages: WebhookMessage[] = [];
  for (const change of p.get("changes").list()) {
    const ref = change.get("ref");
    const refType = ref.get("type").str();
    if (refType === "BRANCH" && !gitBranchWanted(request, ref.get("displayId").str())) continue;
    const message = refType === "BRANCH" || refType === "TAG" ? refChange(p, change) : null;
    if (message === null) return { unsupported: `repo:refs_changed.${refType}.${change.get("type").str()}` };
    messages.push(message);
  }
  return messages;
}

function reviewers(pr: Payload): string[] {
  const list = pr.opt("reviewers");
  return list.exists() ? list.list().map((r) => userLink(r.get("user"))) : [];
}

function prLink(pr: Payload, includeTitle: boolean): string {
  return `[PR #${pr.get("id").num()}${includeTitle ? ` ${pr.get("title").str()}` : ""}](${selfLink(pr)})`;
}

/** A pull request opened or modified: branches, reviewers, description quoted. */
function prOpenedOrModified(pr: Payload, p: Payload, action: string, includeTitle: boolean): string {
  const names = reviewers(pr);
  const from = pr.get("fromRef").get("displayId").str();
  const to = pr.get("toRef").get("displayId").str();
  const review = names.length > 0 ? ` (assigned to ${englishList(names)} for review)` : "";
  const description = pr.opt("description").strOr(null);
  const head = `${actor(p)} ${action} ${prLink(pr, includeTitle)} from \`${from}\` to \`${to}\`${review}`;
  return description ? `${head}:\n\n${gitQuote(description)}` : `${head}.`;
}

/** Reviewers changed: who reviews now, or that nobody does. */
function prReviewersUpdated(pr: Payload, p: Payload, includeTitle: boolean): string {
  const names = reviewers(pr);
  if (names.length === 0) return `${actor(p)} removed all reviewers from ${prLink(pr, includeTitle)}.`;
  return `${actor(p)} reassigned ${prLink(pr, includeTitle)} to ${englishList(names)}.`;
}

function pullRequest(action: string): Handler {
  return (p, request) => {
    const pr = p.get("pullRequest");
    const includeTitle = gitIncludeTitle(request);
    let content: string;
    if (action === "opened" || action === "modified") content = prOpenedOrModified(pr, p, action, includeTitle);
    else if (action === "needs_work") content = `${actor(p)} marked ${prLink(pr, includeTitle)} as "needs work".`;
    else if (action === "reviewers_updated") content = prReviewersUpdated(pr, p, includeTitle);
    else {
      const title = includeTitle ? pr.get("title").str() : null;
      content = gitItemMessage({ user: actor(p), action, kind: "PR", number: pr.get("id").num(), url: selfLink(pr), title });
    }
    return [{ topic: prTopic(pr), content }];
  };
}

function prTopic(pr: Payload): string {
  return gitItemTopic(pr.get("toRef").get("repository").get("name").str(), "PR", pr.get("id").num(), pr.get("title").str());
}

function prComment(action: string): Handler {
  return (p, request) => {
    const pr = p.get("pullRequest");
    const text = p.get("comment").get("text").str();
    const content = gitItemMessage({
      user: actor(p),
      action,
      kind: "PR",
      number: pr.get("id").num(),
      url: selfLink(pr),
      title: gitIncludeTitle(request) ? pr.get("title").str() : null,
      body: action.startsWith("deleted") ? `~~${text}~~` : text,
    });
    return [{ topic: prTopic(pr), content }];
  };
}

const HANDLERS: Record<string, Handler> = {
  "diagnostics:ping": ping,
  "repo:comment:added": commitComment("commented"),
  "repo:comment:edited": commitComment("edited their comment"),
  "repo:comment:deleted": commitComment("deleted their comment"),
  "repo:forked": forked,
  "repo:modified": modified,
  "repo:refs_changed": refsChanged,
  "pr:comment:added": prComment("commented on"),
  "pr:comment:edited": prComment("edited their comment on"),
  "pr:comment:deleted": prComment("deleted their comment on"),
  "pr:declined": pullRequest("declined"),
  "pr:deleted": pullRequest("deleted"),
  "pr:merged": pullRequest("merged"),
  "pr:modified": pullRequest("modified"),
  "pr:opened": pullRequest("opened"),
  "pr:reviewer:approved": pullRequest("approved"),
  "pr:reviewer:needs_work": pullRequest("needs_work"),
  "pr:reviewer:updated": pullRequest("reviewers_updated"),
  "pr:reviewer:unapproved": pullRequest("unapproved"),
};

function handleBitbucket3(request: WebhookRequest): WebhookResult {
  const p = jsonPayload(request);
  const fromPayload = p.opt("eventKey");
  const event = fromPayload.exists() ? fromPayload.str() : request.headers["x-event-key"];
  if (event === undefined) throw new WebhookPayloadError("Missing the HTTP event header 'X-Event-Key'");
  const handler = HANDLERS[event];
  if (handler === undefined) return { kind: "unsupported", eventType: event };
  const messages = handler(p, request);
  if ("unsupported" in messages) return { kind: "unsupported", eventType: messages.unsupported };
  return messages.length === 0 ? { kind: "ignored", eventType: event } : { kind: "messages", eventType: event, messages };
}

/** The Bitbucket Server integration: `/api/v1/external/bitbucket3`. */
export const bitbucket3Integration: Integration = {
  name: "bitbucket3",
  displayName: "Bitbucket3",
  handle: handleBitbucket3,
};
