import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { checkRenderContentLength } from "../../domain/message-fields.js";
import { renderMessageContent } from "./render-content.js";

/**
 * Renders Markdown the way a message sent to `realm` would be rendered
 * (Zulip's `render_message_backend`, https://zulip.com/api/render-message):
 * the same renderer and lookups as sending (`renderMessageContent`: the
 * realm's users, streams, groups, custom emoji and uploads), nothing stored,
 * no event sent. Like Zulip, the content is neither trimmed nor truncated,
 * group-mention permissions are not checked (only sending checks them), and
 * empty content renders to `""`.
 * @param content the Markdown source, as sent
 * @returns `{ rendered }`: the HTML a message with this content would carry
 * @throws JsonableError `content is too long (limit: 10000 characters)`
 * @throws JsonableError `Unable to render message` when the HTML exceeds the rendered-size limit
 */
export async function renderMessagePreview(deps: Deps, realm: RealmRecord, content: string): Promise<{ rendered: string }> {
  checkRenderContentLength(content);
  const { html } = await renderMessageContent(deps, realm, content);
  return { rendered: html };
}
