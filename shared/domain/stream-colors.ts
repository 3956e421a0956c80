/**
 * Personal stream colors (a subscription's `color`).
 *
 * Zulip gives each new subscription a color from a fixed palette of 24
 * soft colors, preferring ones the user does not use yet. We choose without
 * reading the user's other subscriptions (subscribing many users at once
 * must not cost one read per user): the color is a function of the user ID
 * and the stream ID, so one user's streams (whose IDs are allocated in
 * sequence) walk through the palette and different users see the same
 * stream in different colors.
 */

/** The palette, in Zulip's order (the colors of Zulip's web app). */
export const STREAM_COLOR_PALETTE: readonly string[] = [
  "#76ce90",
  "#fae589",
  "#a6c7e5",
  "#e79ab5",
  "#bfd56f",
  "#f4ae55",
  "#b0a5fd",
  "#addfe5",
  "#f5ce6e",
  "#c2726a",
  "#94c849",
  "#bd86e5",
  "#ee7e4a",
  "#a6dcbf",
  "#95a5fd",
  "#53a063",
  "#9987e1",
  "#e4523d",
  "#c2c2c2",
  "#4f8de4",
  "#c6a8ad",
  "#e7cc4d",
  "#c8bebf",
  "#a47462",
];

/**
 * The color a new subscription gets: palette entry `(streamId + 7 × userId) mod 24`.
 * Consecutive stream IDs give one user consecutive (distinct) palette entries;
 * 7 is coprime with 24, so users whose IDs differ by less than 24 start at
 * different entries.
 * @param userId the subscriber
 * @param streamId the stream
 * @returns a `#rrggbb` color from {@link STREAM_COLOR_PALETTE}
 */
export function pickStreamColor(userId: number, streamId: number): string {
  const n = STREAM_COLOR_PALETTE.length;
  const index = (((streamId + 7 * userId) % n) + n) % n;
  return STREAM_COLOR_PALETTE[index]!;
}

/**
 * Whether a string is a color Zulip accepts for a subscription: `#` and 3
 * to 6 hex digits (Zulip's `check_color`).
 */
export function isValidStreamColor(value: string): boolean {
  return /^#[0-9a-fA-F]{3,6}$/.test(value);
}
