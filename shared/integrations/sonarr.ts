import { arrFirst, arrIntegration } from "./arr.js";
import type { Payload } from "./payload.js";

/**
 * Sonarr (Zulip's `api_sonarr_webhook`,
 * https://zulip.com/integrations/doc/sonarr): `Test`, `Health`, `Rename`,
 * `SeriesDelete`, `Download` (an import, or an upgrade when `isUpgrade`),
 * `Grab` and `EpisodeFileDelete` (manual or for an upgrade); the topic of
 * series events is the series title. Other events, and a `Download`
 * without `isUpgrade` or an `EpisodeFileDelete` without `deleteReason`,
 * are unsupported.
 */
export const sonarrIntegration = arrIntegration({
  name: "sonarr",
  displayName: "Sonarr",
  subject: "series",
  describe(eventType: string, payload: Payload): string | null {
    const series = payload.get("series").get("title").str();
    switch (eventType) {
      case "Rename":
        return `${series} episodes have been renamed.`;
      case "SeriesDelete":
        return `${series} has been deleted.`;
      case "Download":
        if (!payload.opt("isUpgrade").exists()) return null;
        if (payload.get("isUpgrade").bool()) {
          const from = arrFirst(payload.get("deletedFiles")).get("quality").str();
          const to = payload.get("episodeFile").get("quality").str();
          return `${episode(series, payload)} has been upgraded from ${from} to ${to}.`;
        }
        return `${episode(series, payload)} has been imported.`;
      case "Grab":
        return `${episode(series, payload)} has been grabbed.`;
      case "EpisodeFileDelete":
        if (!payload.opt("deleteReason").exists()) return null;
        return payload.get("deleteReason").str() === "upgrade"
          ? `${episode(series, payload)} has been deleted due to quality upgrade.`
          : `${episode(series, payload)} has been deleted.`;
      default:
        return null;
    }
  },
});

/** `Series - 18x10 - Title`: season x episode, as Sonarr numbers them (Zulip's form). */
function episode(series: string, payload: Payload): string {
  const first = arrFirst(payload.get("episodes"));
  return `${series} - ${first.get("seasonNumber").num()}x${first.get("episodeNumber").num()} - ${first.get("title").str()}`;
}
