import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration } from "./types.js";

/** A job's or workflow's outcome, as the sentence ends. */
const OUTCOME: Record<string, string> = {
  success: "succeeded",
  failed: "failed",
  canceled: "was canceled",
  unauthorized: "was unauthorized",
  error: "had an error",
};

/** Git hosts abbreviate commit hashes to 11 characters in these messages, as Zulip's git helpers do. */
function shortSha(sha: string): string {
  return sha.slice(0, 11);
}

/** Which commit the pipeline ran on, with a link on its host, on which branch, by whom. */
function commitLine(pipeline: Payload): string {
  if (pipeline.opt("vcs").exists()) {
    // GitHub and Bitbucket projects.
    const vcs = pipeline.get("vcs");
    const revision = vcs.get("revision").str();
    const repo = vcs.get("target_repository_url").str();
    const link = vcs.get("provider_name").str() === "github" ? `${repo}/commit/${revision}` : `${repo}/commits/${revision}`;
    const branch = vcs.get("branch").strOr(null);
    const commit = vcs.get("commit");
    const subject = commit.get("subject").strOr("");
    if (subject === "") {
      // A manually triggered pipeline: no commit of its own, just a branch head or the latest tag.
      const where = branch !== null && branch !== "" ? `the head of \`${branch}\`` : "the latest tag";
      return `Ran on ${where}, at [${shortSha(revision)}](${link}).`;
    }
    const author = commit.get("author").get("name").str();
    return `Commit [\`${shortSha(revision)}: ${subject}\`](${link}) on \`${branch ?? ""}\` by ${author}.`;
  }
  // GitLab projects.
  const gitlab = pipeline.get("trigger_parameters").get("gitlab");
  const sha = gitlab.get("checkout_sha").str();
  const link = `${gitlab.get("web_url").str()}/-/commit/${sha}`;
  const title = gitlab.get("commit_title").str();
  const author = gitlab.get("commit_author_name").str();
  return `Commit [\`${shortSha(sha)}: ${title}\`](${link}) on \`${gitlab.get("branch").str()}\` by ${author}.`;
}

function outcome(status: Payload): string {
  return OUTCOME[status.str()] ?? `ended with status \`${status.str()}\``;
}

/**
 * CircleCI webhooks (https://zulip.com/integrations/doc/circleci; Zulip's
 * `api_circleci_webhook`): `ping` (topic "Test event"), `job-completed`
 * and `workflow-completed` (topic the project name: which job or workflow
 * of which pipeline ended how, on which commit, branch and author). The
 * event type is the payload's `type`; other types are unsupported.
 * Pipelines triggered by hosts other than GitHub, Bitbucket and GitLab
 * are refused.
 */
export const circleciIntegration: Integration = {
  name: "circleci",
  displayName: "CircleCI",
  handle(request) {
    const payload = jsonPayload(request);
    const type = payload.get("type").str();
    if (type === "ping") {
      return singleMessage(type, "Test event", `Test event of webhook '${payload.get("webhook").get("name").str()}' received.`);
    }
    if (type !== "job-completed" && type !== "workflow-completed") return { kind: "unsupported", eventType: type };
    const pipeline = payload.get("pipeline");
    if (pipeline.opt("trigger_parameters").exists() && pipeline.get("trigger").get("type").str() !== "gitlab") {
      throw new WebhookPayloadError("Projects using this version control system are not supported");
    }
    const number = pipeline.get("number").num();
    let head: string;
    if (type === "job-completed") {
      const job = payload.get("job");
      head = `Job \`${job.get("name").str()}\` of pipeline #${number} ${outcome(job.get("status"))}.`;
    } else {
      const workflow = payload.get("workflow");
      const link = `[\`${workflow.get("name").str()}\`](${workflow.get("url").str()})`;
      head = `Workflow ${link} of pipeline #${number} ${outcome(workflow.get("status"))}.`;
    }
    return singleMessage(type, payload.get("project").get("name").str(), `${head}\n${commitLine(pipeline)}`);
  },
};
