/**
 * Initial state of fetch types whose features this server does not have:
 * each with its correct empty shape (https://zulip.com/api/register-queue),
 * so that clients that read every key find them.
 */

/** Custom profile field types (https://zulip.com/api/register-queue, `custom_profile_field_types`: symbolic names with `id` and `name`). */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: "Short text" },
  LONG_TEXT: { id: 2, name: "Long text" },
  CHOICE: { id: 3, name: "List of options" },
  DATE: { id: 4, name: "Date picker" },
  URL: { id: 5, name: "Link" },
  USER: { id: 6, name: "Person picker" },
  EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
} as const;

/** Fetch type → the keys it contributes while the feature has no data yet. */
export const EMPTY_INITIAL_STATE: Record<string, () => Record<string, unknown>> = {
  custom_profile_fields: () => ({ custom_profile_fields: [], custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES }),
  default_stream_groups: () => ({ realm_default_stream_groups: [] }),
  giphy: () => ({ giphy_api_key: "" }),
  // `hotspots` is the older name of `onboarding_steps` (feature level 233); there are no
  // hotspots since Zulip removed that step type (feature level 259).
  hotspots: () => ({ hotspots: [] }),
  realm_domains: () => ({ realm_domains: [] }),
  realm_embedded_bots: () => ({ realm_embedded_bots: [] }),
  realm_emoji: () => ({ realm_emoji: {} }),
  realm_filters: () => ({ realm_filters: [] }),
  realm_linkifiers: () => ({ realm_linkifiers: [] }),
  realm_playgrounds: () => ({ realm_playgrounds: [] }),
  scheduled_messages: () => ({ scheduled_messages: [] }),
  stop_words: () => ({ stop_words: [] }),
  video_calls: () => ({ has_zoom_token: false }),
};
