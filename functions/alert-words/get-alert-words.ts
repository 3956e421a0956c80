import type { Endpoint } from "../../shared/http/context.js";
import { fetchAlertWords } from "../../shared/queries/users/alert-words.js";

/** `GET /users/me/alert_words` (https://zulip.com/api/get-alert-words): the caller's alert words. */
export const getAlertWords: Endpoint = async (ctx) => ({
  alert_words: await fetchAlertWords(ctx.deps, ctx.realm, ctx.user.user_id),
});
