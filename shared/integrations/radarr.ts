import { arrFirst, arrIntegration } from "./arr.js";
import { type Payload, WebhookPayloadError } from "./payload.js";

/** Why Radarr deleted a movie file, as a phrase. */
const RADARR_DELETE_REASONS: Readonly<Record<string, string>> = {
  missingFromDisk: "because it is missing from disk",
  manual: "manually",
  upgrade: "because an upgraded version exists",
  noLinkedEpisodes: "because it has no linked episodes",
  manualOverride: "by a manual override",
};

/**
 * Radarr (Zulip's `api_radarr_webhook`,
 * https://zulip.com/integrations/doc/radarr): `Test`, `Health`,
 * `ApplicationUpdate` (topic `Radarr - Application update`), `Rename`,
 * `Download` (an import, or an upgrade when `isUpgrade`), `Grab`,
 * `MovieDelete`, `MovieFileDelete` and `MovieAdded`; the topic of movie
 * events is the movie title. Other events, and a `Download` without
 * `isUpgrade`, are unsupported; an unknown file-deletion reason is a
 * WebhookPayloadError as in Zulip.
 */
export const radarrIntegration = arrIntegration({
  name: "radarr",
  displayName: "Radarr",
  subject: "movie",
  fixedTopics: { ApplicationUpdate: "Radarr - Application update" },
  describe(eventType: string, payload: Payload): string | null {
    if (eventType === "ApplicationUpdate") {
      return `Radarr was updated from ${payload.get("previousVersion").str()} to ${payload.get("newVersion").str()}.`;
    }
    // Zulip's wording names the movie plainly; the two events its tests do not cover keep it in bold.
    const title = payload.get("movie").get("title").str();
    const movie = `**${title}**`;
    switch (eventType) {
      case "Rename":
        return `The movie ${title} has been renamed.`;
      case "Download":
        if (!payload.opt("isUpgrade").exists()) return null;
        if (payload.get("isUpgrade").bool()) {
          const from = arrFirst(payload.get("deletedFiles")).get("quality").str();
          return `The movie ${title} has been upgraded from ${from} to ${payload.get("movieFile").get("quality").str()}.`;
        }
        return `The movie ${title} has been imported.`;
      case "Grab":
        return `The movie ${title} has been grabbed.`;
      case "MovieDelete":
        return `The movie ${title} was deleted; ${payload.get("deletedFiles").bool() ? "its files were also deleted" : "its files were kept"}.`;
      case "MovieFileDelete": {
        const reason = payload.get("deleteReason");
        const phrase = RADARR_DELETE_REASONS[reason.str()];
        if (phrase === undefined) throw new WebhookPayloadError(`${reason.path} is not an allowed value`);
        const quality = payload.get("movieFile").get("quality").str();
        return `A ${quality} file of the movie ${movie} was deleted ${phrase}.`;
      }
      case "MovieAdded":
        return `The movie ${movie} was added.`;
      default:
        return null;
    }
  },
});
