import type { PublicEndpoint } from "../../shared/http/context.js";
import { loadEmojiNames } from "../../shared/emoji/load.js";

/**
 * The emoji data file that `server_emoji_data_url` (`POST /register`) names:
 * `code_to_names` for every Unicode emoji this server accepts. Clients
 * (zulip-flutter) load it at start-up for the emoji picker. No credentials.
 */
export const getEmojiData: PublicEndpoint = async () => ({ code_to_names: (await loadEmojiNames()).emojiCodeToNames() });
