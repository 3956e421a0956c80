/**
 * The version triple this server reports in `GET /server_settings` and
 * `POST /register` (https://zulip.com/api/changelog: feature levels).
 *
 * We claim feature level 283, the level of the reference OpenAPI file, and
 * serve the response shapes of that level. The official mobile app refuses
 * servers below feature level 277, and the Python client refuses a server
 * without `zulip_version`, so these three values are load-bearing.
 */
export const ZULIP_FEATURE_LEVEL = 283;

/** Release string matching {@link ZULIP_FEATURE_LEVEL} (Zulip 10.0 development series). */
export const ZULIP_VERSION = "10.0-dev";

/** Equal to the version: we are not a fork tracking an upstream merge base. */
export const ZULIP_MERGE_BASE = "10.0-dev";

/** The version triple as Zulip clients read it (`zulip_*`), plus the same values under `service_*` names. */
export function versionFields(): Record<string, string | number> {
  return {
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
    service_version: ZULIP_VERSION,
    service_feature_level: ZULIP_FEATURE_LEVEL,
    service_merge_base: ZULIP_MERGE_BASE,
  };
}
