import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { getMessage } from "./get-message.js";
import { getMessages } from "./get-messages.js";
import { sendMessage } from "./send-message.js";
import { addReaction } from "./add-reaction.js";
import { deleteMessage } from "./delete-message.js";
import { getMessageHistory } from "./get-message-history.js";
import { markAllAsRead } from "./mark-all-as-read.js";
import { markStreamAsRead } from "./mark-stream-as-read.js";
import { markTopicAsRead } from "./mark-topic-as-read.js";
import { removeReaction } from "./remove-reaction.js";
import { updateMessage } from "./update-message.js";
import { updateMessageFlags } from "./update-message-flags.js";
import { updateMessageFlagsForNarrow } from "./update-message-flags-for-narrow.js";

/** Endpoints of the `messages` group, keyed by the route table's endpoint names. */
export const endpoints = {
  sendMessage,
  getMessages,
  getMessage,
  updateMessage,
  deleteMessage,
  getMessageHistory,
  addReaction,
  removeReaction,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
};

export const handler = groupHandler(endpoints, createDeps());
