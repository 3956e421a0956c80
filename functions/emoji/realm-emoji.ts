import { checkAddRealmEmoji, checkRemoveRealmEmoji } from "../../shared/actions/realms/realm-emoji.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { multipartFiles } from "../../shared/http/multipart.js";
import { realmEmojiState } from "../../shared/queries/realm-emoji.js";

/** `GET /realm/emoji` (https://zulip.com/api/get-custom-emoji): every custom emoji, keyed by ID. */
export const getCustomEmoji: Endpoint = async (ctx) => ({ emoji: await realmEmojiState(ctx.deps, ctx.realm.id) });

/**
 * `POST /realm/emoji/{emoji_name}` (https://zulip.com/api/upload-custom-emoji):
 * one image file in a multipart body (any field name). Files are read up to
 * the upload size limit (`MAX_FILE_UPLOAD_SIZE_MIB`, below Zulip's 5 MiB
 * emoji limit because a Lambda request cannot carry more).
 */
export const uploadCustomEmoji: Endpoint<FilesDeps> = async (ctx) => {
  const maxBytes = ctx.deps.config.MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;
  const upload = await multipartFiles(ctx, { maxFileBytes: maxBytes, maxFiles: 2 });
  await checkAddRealmEmoji(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.emoji_name ?? "", upload, maxBytes);
};

/** `DELETE /realm/emoji/{emoji_name}` (https://zulip.com/api/deactivate-custom-emoji). */
export const deactivateCustomEmoji: Endpoint = async (ctx) => {
  await checkRemoveRealmEmoji(ctx.deps, ctx.realm, ctx.user, ctx.pathParams.emoji_name ?? "");
};
