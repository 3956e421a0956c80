import { WebhookPayloadError, jsonPayload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration } from "./types.js";

/** Buildbot's result codes, by index (https://docs.buildbot.net/latest/developer/results.html). */
const RESULTS = ["success", "warnings", "failure", "skipped", "exception", "retry", "cancelled"];

/**
 * Buildbot's Zulip reporter (https://zulip.com/integrations/doc/buildbot;
 * Zulip's `api_buildbot_webhook`): a build started (`new`) or `finished`
 * with its result. Topic: the project, "general" when it has none. The
 * event type is the payload's `event`; other events are unsupported.
 */
export const buildbotIntegration: Integration = {
  name: "buildbot",
  displayName: "Buildbot",
  handle(request) {
    const payload = jsonPayload(request);
    const event = payload.get("event").str();
    if (event !== "new" && event !== "finished") return { kind: "unsupported", eventType: event };
    const project = payload.get("project").str();
    const build = `**${payload.get("buildername").str()}** build [#${payload.get("buildid").num()}](${payload.get("url").str()})`;
    let content: string;
    if (event === "new") content = `${build} started.`;
    else {
      const code = payload.get("results");
      const result = RESULTS[code.num()];
      if (result === undefined) throw new WebhookPayloadError(`${code.path} is not a Buildbot result code`);
      content = `${build} finished with result **${result}**.`;
    }
    return singleMessage(event, project === "" ? "general" : project, content);
  },
};
