import { z } from "zod";
import { doAddAlertWords } from "../../shared/actions/users/alert-words.js";
import { ALERT_WORD_MAX_LENGTH, MAX_ALERT_WORDS } from "../../shared/domain/alert-words.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/**
 * `POST /users/me/alert_words` (https://zulip.com/api/add-alert-words): adds
 * words to the caller's alert words; answers the whole list.
 */
export const addAlertWords: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    alert_words: param.json(z.array(z.string().max(ALERT_WORD_MAX_LENGTH)).max(MAX_ALERT_WORDS)),
  });
  return { alert_words: await doAddAlertWords(ctx.deps, ctx.realm, ctx.user, p.alert_words) };
};
