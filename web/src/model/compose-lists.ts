/**
 * The two lists of unsent messages, addressed by the location hash as in
 * Zulip's web app: `#drafts` (https://zulip.com/help/view-and-edit-your-message-drafts)
 * and `#scheduled` (https://zulip.com/help/schedule-a-message). They open
 * above the chat, whose view stays as it was.
 */

/** Which list. */
export type ComposeList = "drafts" | "scheduled";

/** The list a location hash opens (`#drafts`, `#scheduled`), or null for any other hash. */
export function composeListOf(hash: string): ComposeList | null {
  const h = hash.replace(/^#/, "").replace(/\/$/, "");
  return h === "drafts" || h === "scheduled" ? h : null;
}
