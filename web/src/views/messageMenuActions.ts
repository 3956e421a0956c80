import type { Chat } from "../model/chat.js";
import {
  deleteMessage,
  editMessageContent,
  fetchEditHistory,
  fetchRawContent,
  fetchReadReceipts,
  markUnreadFromHere,
  messageLink,
  quoteText,
  type LinkNames,
} from "../model/message-actions.js";
import type { Message } from "../model/types.js";
import { insertIntoCompose } from "./compose/Compose.js";
import type { MessageMenuActions } from "./message/actions.js";

/** Names for links, from the chat's state (empty before the first registration). */
function linkNames(chat: Chat): LinkNames {
  const state = chat.snapshot.state;
  return {
    myUserId: state?.me.user_id ?? 0,
    streamName: (id) => state?.streams.get(id)?.name,
    userName: (id) => state?.users.get(id)?.full_name,
  };
}

/**
 * The message actions over the chat controller. `reply` opens compose to the
 * message's conversation (the screen's reply); the quote is added once the
 * message's source has arrived.
 */
export function messageMenuActions(chat: Chat, reply: (message: Message) => void): MessageMenuActions {
  const link = (m: Message) => messageLink(location.origin, m, linkNames(chat));
  return {
    loadSource: (m) => fetchRawContent(chat.api, m.id),
    editMessage: (m, content) => editMessageContent(chat.api, m.id, content),
    deleteMessage: (m) => deleteMessage(chat.api, m.id),
    quoteAndReply: async (m) => {
      reply(m);
      const raw = await fetchRawContent(chat.api, m.id);
      insertIntoCompose(quoteText(m, raw, link(m)));
    },
    messageLink: link,
    markUnreadFromHere: async (m) => {
      chat.pauseReading();
      await markUnreadFromHere(chat.api, chat.snapshot.view, m.id);
    },
    editHistory: (m) => fetchEditHistory(chat.api, m.id),
    readReceipts: (m) => fetchReadReceipts(chat.api, m.id),
  };
}
