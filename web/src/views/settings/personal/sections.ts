import type { SettingsSection } from "../types.js";

/** The sections of personal settings (`#settings/<id>`), in the order the overlay lists them. */
export const PERSONAL_SECTIONS: SettingsSection[] = [];
