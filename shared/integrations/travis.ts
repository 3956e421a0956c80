import { WebhookPayloadError, jsonPayload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration } from "./types.js";

/** Build status → how the sentence says it, and its emoji. */
const STATUS: Record<string, [string, string]> = {
  Passed: ["**passed**", ":thumbs_up:"],
  Fixed: ["**fixed**", ":thumbs_up:"],
  Failed: ["**failed**", ":thumbs_down:"],
  Broken: ["**broken**", ":thumbs_down:"],
  "Still Failing": ["**still failing**", ":thumbs_down:"],
  Errored: ["**errored**", ":thumbs_down:"],
  Canceled: ["**canceled**", ":thumbs_down:"],
  Pending: ["**in progress**", ":counterclockwise:"],
};

/**
 * Travis CI build notifications (https://zulip.com/integrations/doc/travis;
 * Zulip's `api_travis_webhook`), sent as a form with the JSON in `payload`.
 * The event type is the build's `type` (`push`, `pull_request`, or `api`/
 * `cron` for other builds); the topic is `<repo> / <branch>`, or
 * `<repo> / PR #<number> <title>` for a pull-request build. The message:
 * build number and link, status, the commit's first line linked to the
 * comparison, and its author. `ignore_pull_requests=true` skips
 * pull-request builds.
 */
export const travisIntegration: Integration = {
  name: "travis",
  displayName: "Travis",
  handle(request) {
    const payload = jsonPayload(request);
    const type = payload.get("type").str();
    if (type === "pull_request" && request.query.ignore_pull_requests === "true") {
      return { kind: "ignored", eventType: type };
    }
    const status = payload.get("status_message").str();
    const wording = STATUS[status];
    if (wording === undefined) throw new WebhookPayloadError(`${payload.get("status_message").path} is not a known build status`);
    const message = payload.opt("message").strOr("").trim();
    const subject = message === "" ? "(no commit message)" : message.split(/\r?\n/)[0]!;
    const build = `Build [#${payload.get("number").str()}](${payload.get("build_url").str()})`;
    const commit = `[${subject}](${payload.get("compare_url").str()})`;
    const author = payload.get("author_name").str();
    const content = `${build} of ${author}'s commit ${commit}: ${wording[0]} ${wording[1]}`;
    const repo = payload.get("repository").get("name").str();
    const prNumber = payload.opt("pull_request_number").numOr(null);
    const topic =
      type === "pull_request" && prNumber !== null
        ? `${repo} / PR #${prNumber} ${payload.opt("pull_request_title").strOr("")}`.trimEnd()
        : `${repo} / ${payload.get("branch").str()}`;
    return singleMessage(type, topic, content);
  },
};
