import { groupHandler } from "../../shared/http/group-handler.js";
import { getMessage } from "./get-message.js";
import { getMessages } from "./get-messages.js";
import { sendMessage } from "./send-message.js";

/** Endpoints of the `messages` group, keyed by the route table's endpoint names. */
export const endpoints = {
  sendMessage,
  getMessages,
  getMessage,
};

export const handler = groupHandler(endpoints);
