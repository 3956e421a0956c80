/**
 * The overlays that open above the chat, addressed by the location hash as in
 * Zulip's web app: personal settings (`#settings/profile`), organization
 * settings (`#organization/organization-profile`) and channel settings
 * (`#channels/subscribed`, `#channels/all`, `#channels/new`,
 * `#channels/<id>/<name>/general`; Zulip's older `#streams/…` is read the same).
 * The chat underneath keeps its view; closing an overlay goes back to it.
 */

/** Which overlay. */
export type OverlayArea = "settings" | "organization" | "channels";

/** An open overlay: its area, the section (`profile`, `users`, …) and what follows it in the hash (decoded). */
export interface Overlay {
  area: OverlayArea;
  section: string;
  rest: string[];
}

/** The section an area opens at when its hash names none. */
export const DEFAULT_SECTION: Record<OverlayArea, string> = {
  settings: "profile",
  organization: "organization-profile",
  channels: "subscribed",
};

const AREAS: Record<string, OverlayArea> = {
  settings: "settings",
  organization: "organization",
  channels: "channels",
  streams: "channels",
};

/**
 * Reads a location hash into an overlay, or null when the hash is a chat view
 * (`#narrow/…`, `#inbox`, `#feed`, empty).
 * `#settings` → `{area: "settings", section: "profile", rest: []}`;
 * `#channels/12/general/subscribers` → `{area: "channels", section: "12", rest: ["general", "subscribers"]}`.
 */
export function parseOverlayHash(hash: string): Overlay | null {
  const parts = hash.replace(/^#/, "").split("/").filter((p) => p !== "");
  const area = AREAS[parts[0] ?? ""];
  if (!area) return null;
  const decoded = parts.slice(1).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  return { area, section: decoded[0] ?? DEFAULT_SECTION[area], rest: decoded.slice(1) };
}

/** The hash of an overlay section (`#settings/display-settings`); `rest` parts are URI-encoded. */
export function overlayHash(area: OverlayArea, section: string, ...rest: string[]): string {
  return `#${[area, section, ...rest].map((p) => encodeURIComponent(p)).join("/")}`;
}
