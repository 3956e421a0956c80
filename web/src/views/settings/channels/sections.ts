import type { SettingsSection } from "../types.js";

/**
 * The sections of channel settings (`#channels/<id>`): the lists (`subscribed`,
 * `all`), `new`, and one stream's settings (`#channels/<stream id>/<name>/<tab>`,
 * matched by {@link CHANNEL_SECTION} when no list section has the ID).
 */
export const CHANNEL_SECTIONS: SettingsSection[] = [];

/** The view of one stream's settings, for `#channels/<stream id>/…`; null until the channel settings are built. */
export const CHANNEL_SECTION: SettingsSection | null = null;
