/**
 * GitLab CI/CD and operations events: jobs, pipelines, releases,
 * deployments, feature flags and expiring access tokens (bodies of
 * Zulip's `zerver/webhooks/gitlab/view.py` for those events; wording ours).
 */
import { gitQuote } from "../git.js";
import type { Payload } from "../payload.js";

/** The project's web address (job payloads carry `repository.homepage` instead of `project`). */
export function gitlabProjectUrl(p: Payload): string {
  return p.opt("project").exists() ? p.get("project").get("web_url").str() : p.get("repository").get("homepage").str();
}

function statusPhrase(status: string, createdWord: string): string {
  if (status === createdWord) return "was created";
  if (status === "running") return "started";
  return `changed status to ${status}`;
}

/** A job (`Job Hook`, formerly `Build Hook`) created, started or finished. */
export function gitlabJob(p: Payload): string {
  const phrase = statusPhrase(p.get("build_status").str(), "created");
  return `Build ${p.get("build_name").str()} from ${p.get("build_stage").str()} stage ${phrase}.`;
}

/** A pipeline's state and each of its jobs, with links to the jobs' artifacts when they built some. */
export function gitlabPipeline(p: Payload): string {
  const attrs = p.get("object_attributes");
  const web = gitlabProjectUrl(p);
  const id = attrs.get("id").num();
  const builds = p.get("builds").list().map((b) => {
    const url = `${web}/-/jobs/${b.get("id").num()}`;
    const row = `* [${b.get("name").str()}](${url}) - ${b.get("status").str()}`;
    const artifacts = b.opt("artifacts_file");
    const file = artifacts.exists() ? artifacts.opt("filename").strOr(null) : null;
    return file ? `${row}\n  * built artifact: *${file}* [[Browse](${url}/artifacts/browse)|[Download](${url}/artifacts/download)]` : row;
  });
  const head = `[Pipeline (${id})](${web}/-/pipelines/${id}) ${statusPhrase(attrs.get("status").str(), "pending")}`;
  return builds.length > 0 ? `${head} with build(s):\n${builds.join("\n")}.` : `${head}.`;
}

/** A release created, updated or deleted; its notes quoted. */
export function gitlabRelease(p: Payload): string {
  const action = p.get("action").str();
  const name = p.get("name").str();
  const tag = p.get("tag").str();
  const verb = action.endsWith("e") ? `${action}d` : `${action}ed`;
  if (action === "delete") return `Release ${name} for tag ${tag} was ${verb}.`;
  const head = `Release [${name}](${p.get("url").str()}) for tag ${tag} was ${verb}.`;
  const notes = p.opt("description").strOr(null);
  return notes ? `${head}\n\n${gitQuote(notes)}` : head;
}

/** A feature flag switched on or off. */
export function gitlabFeatureFlag(p: Payload): string {
  const flag = p.get("object_attributes");
  const state = flag.get("active").bool() ? "activated" : "deactivated";
  return `${p.get("user").get("username").str()} ${state} the feature flag [${flag.get("name").str()}](${gitlabProjectUrl(p)}/-/feature_flags).`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** An access token of a project or group about to expire, and when (`2025-03-02` → `Mar 02, 2025`). */
export function gitlabAccessTokenExpiry(p: Payload): string {
  const token = p.get("object_attributes");
  const expires = token.get("expires_at").str();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(expires);
  const date = m && MONTHS[Number(m[2]) - 1] ? `${MONTHS[Number(m[2]) - 1]} ${m[3]}, ${m[1]}` : expires;
  const group = p.opt("group");
  const page = group.exists()
    ? `https://gitlab.com/groups/${group.get("group_path").str()}/-/settings/access_tokens`
    : `${p.get("project").get("web_url").str()}/-/settings/access_tokens`;
  return `The access token [${token.get("name").str()}](${page}) expires on ${date}.`;
}

/** A deployment started (who, which commit) or finished (succeeded, failed, canceled). */
export function gitlabDeployment(p: Payload): string {
  const status = p.get("status").str();
  const link = p.opt("deployable_url").strOr("");
  const deployment = link ? `[deployment](${link})` : "deployment";
  switch (status) {
    case "running": {
      const user = `[${p.get("user").get("name").str()}](${p.get("user_url").str()})`;
      const commitUrl = p.get("commit_url").str();
      const sha = (commitUrl.split("/").pop() ?? "").slice(0, 7);
      return `${user} started a new ${deployment}:\n> [${sha}](${commitUrl}) ${p.get("commit_title").str()}`;
    }
    case "success":
      return `The ${deployment} succeeded.`;
    case "failed":
      return `The ${deployment} failed.`;
    case "canceled":
      return `The ${deployment} was canceled.`;
  }
  return `The ${deployment} is ${status}.`;
}
