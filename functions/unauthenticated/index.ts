import { groupHandler } from "../../shared/http/group-handler.js";
import { fetchApiKey } from "./fetch-api-key.js";
import { getEmojiData } from "./get-emoji-data.js";
import { getServerSettingsEndpoint } from "./get-server-settings.js";

/** Endpoints of the `auth` group (no credentials needed). */
export const endpoints = {
  getServerSettings: getServerSettingsEndpoint,
  fetchApiKey,
  getEmojiData,
};

export const handler = groupHandler(endpoints);
