import { WebhookPayloadError, jsonPayload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration } from "./types.js";

/** Zulip's topic for every Travis build. */
const TOPIC = "builds";

/** Build status → how the sentence says it, and its emoji (Zulip's wording for each Travis status). */
const STATUS: Record<string, [string, string]> = {
  Passed: ["**passed**", ":thumbs_up:"],
  Fixed: ["was **fixed**", ":thumbs_up:"],
  Failed: ["**failed**", ":thumbs_down:"],
  Broken: ["is **broken**", ":thumbs_down:"],
  "Still Failing": ["is **still failing**", ":thumbs_down:"],
  Errored: ["**errored**", ":thumbs_down:"],
  Canceled: ["was **canceled**", ":thumbs_down:"],
  Pending: ["is **being built**", ":counterclockwise:"],
};

/**
 * Travis CI build notifications (https://zulip.com/integrations/doc/travis;
 * Zulip's `api_travis_webhook`), sent as a form with the JSON in `payload`.
 * The event type is the build's `type` (`push`, `pull_request`, or `api`/
 * `cron` for other builds); every build goes to the topic `builds` (the
 * URL's `topic` replaces it). The message: build number and link, status
 * and emoji, the commit's first line linked to the comparison, and its
 * author. Pull-request builds are skipped unless the URL says
 * `ignore_pull_requests=false`, as Zulip's documentation describes.
 */
export const travisIntegration: Integration = {
  name: "travis",
  displayName: "Travis",
  handle(request) {
    const payload = jsonPayload(request);
    const type = payload.get("type").str();
    if (type === "pull_request" && request.query.ignore_pull_requests !== "false") {
      return { kind: "ignored", eventType: type };
    }
    const status = payload.get("status_message").str();
    const wording = STATUS[status];
    if (wording === undefined) throw new WebhookPayloadError(`${payload.get("status_message").path} is not a known build status`);
    const message = payload.opt("message").strOr("").trim();
    const subject = message === "" ? "(no commit message)" : message.split(/\r?\n/)[0]!;
    const build = `**Build [#${payload.get("number").str()}](${payload.get("build_url").str()})**`;
    const commit = `[${subject}](${payload.get("compare_url").str()})`;
    const author = payload.get("author_name").str();
    const content = `${build} ${wording[0]} ${wording[1]} for commit: ${commit} by ${author}.`;
    return singleMessage(type, TOPIC, content);
  },
};
