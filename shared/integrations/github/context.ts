import type { Payload } from "../payload.js";

/** What every GitHub message builder reads: the payload and whether messages name titles. */
export interface GitHubContext {
  p: Payload;
  /** Messages repeat the title only when the sender fixed the topic (Zulip's `include_title`). */
  includeTitle: boolean;
}

/** The login of whoever triggered the event (`sender.login`). */
export function githubSender(p: Payload): string {
  return p.get("sender").get("login").str();
}

/** `[login](profile)` of whoever triggered the event, as Zulip's label and milestone messages name them. */
export function githubSenderLink(p: Payload): string {
  const sender = p.get("sender");
  return `[${sender.get("login").str()}](${sender.get("html_url").str()})`;
}

/** `repository.name`, the first part of most GitHub topics. */
export function githubRepoName(p: Payload): string {
  return p.get("repository").get("name").str();
}

/** `owner/name`, as GitHub names a repository in sentences. */
export function githubRepoFullName(p: Payload): string {
  return p.get("repository").get("full_name").str();
}

/** `[owner/name](url)`. */
export function githubRepoLink(p: Payload): string {
  return `[${githubRepoFullName(p)}](${p.get("repository").get("html_url").str()})`;
}
