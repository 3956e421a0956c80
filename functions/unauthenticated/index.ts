import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { fetchApiKey } from "./fetch-api-key.js";
import { getEmojiData } from "./get-emoji-data.js";
import { getServerSettings } from "./get-server-settings.js";

/** Endpoints of the `unauthenticated` group (no credentials needed). */
export const endpoints = {
  getServerSettings,
  fetchApiKey,
  getEmojiData,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints, createDeps());
