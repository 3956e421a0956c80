/**
 * Initial state of fetch types whose features this server does not have:
 * each with its correct empty shape (https://zulip.com/api/register-queue),
 * so that clients that read every key find them.
 */

/** Fetch type → the keys it contributes while the feature has no data yet. */
export const EMPTY_INITIAL_STATE: Record<string, () => Record<string, unknown>> = {
  default_stream_groups: () => ({ realm_default_stream_groups: [] }),
  giphy: () => ({ giphy_api_key: "" }),
  // `hotspots` is the older name of `onboarding_steps` (feature level 233); there are no
  // hotspots since Zulip removed that step type (feature level 259).
  hotspots: () => ({ hotspots: [] }),
  realm_domains: () => ({ realm_domains: [] }),
  realm_embedded_bots: () => ({ realm_embedded_bots: [] }),
  // The legacy form of `realm_linkifiers`: always empty since feature level 176.
  realm_filters: () => ({ realm_filters: [] }),
  stop_words: () => ({ stop_words: [] }),
  video_calls: () => ({ has_zoom_token: false }),
};
