import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Chat } from "../../model/chat.js";

/** What rows and lists deep in the screen open without passing props through every level. */
export interface ChatUi {
  chat: Chat;
  /** Opens the user card of `userId` beside `anchor` (the name or avatar clicked). */
  openUserCard(userId: number, anchor: HTMLElement): void;
}

/** Provided by the chat screen; null in component tests that render a row alone. */
export const ChatUiContext = createContext<ChatUi | null>(null);

/** The chat screen's {@link ChatUi}, or null outside it. */
export function useChatUi(): ChatUi | null {
  return useContext(ChatUiContext);
}
