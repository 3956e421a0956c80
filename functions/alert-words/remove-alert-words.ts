import { z } from "zod";
import { doRemoveAlertWords } from "../../shared/actions/users/alert-words.js";
import { MAX_ALERT_WORDS } from "../../shared/domain/alert-words.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/**
 * `DELETE /users/me/alert_words` (https://zulip.com/api/remove-alert-words):
 * removes words from the caller's alert words; answers the whole list.
 */
export const removeAlertWords: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { alert_words: param.json(z.array(z.string()).max(MAX_ALERT_WORDS)) });
  return { alert_words: await doRemoveAlertWords(ctx.deps, ctx.user, p.alert_words) };
};
