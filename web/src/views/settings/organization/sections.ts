import type { SettingsSection } from "../types.js";

/** The sections of organization settings (`#organization/<id>`), in the order the overlay lists them. */
export const ORGANIZATION_SECTIONS: SettingsSection[] = [];
