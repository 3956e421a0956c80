import type { ComponentType } from "preact";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";

/** What every settings section gets: the controller (its `api` for calls), the live state, and the hash after the section. */
export interface SectionProps {
  chat: Chat;
  state: ChatState;
  /** The decoded hash parts after the section's ID (`#channels/12/general/subscribers` → `["general", "subscribers"]`). */
  rest: string[];
}

/** One section of a settings overlay: its hash ID (Zulip's, such as `profile` or `organization-permissions`), title and view. */
export interface SettingsSection {
  id: string;
  title: string;
  component: ComponentType<SectionProps>;
  /** Whether the reader sees the section in the list (administrators only, …); absent: everyone. */
  visible?(state: ChatState): boolean;
}
