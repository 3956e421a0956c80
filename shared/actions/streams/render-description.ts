import { loadMarkdownRenderer } from "../../markdown/load.js";

/**
 * Renders a stream description to HTML (`rendered_description`) with the
 * message Markdown renderer, as Zulip's `render_stream_description` does
 * (no previews). Mentions, user groups and channel links are not resolved
 * in descriptions (nothing is looked up, so they stay as typed); emoji,
 * links and formatting are rendered. An empty description renders to ""
 * without loading the renderer (`markdown/load.ts`): the streams created
 * with a new organization or user have none.
 * @param realmUrl the organization's base URL (for links the renderer builds)
 * @returns the HTML
 */
export async function renderStreamDescription(description: string, realmUrl: string): Promise<string> {
  if (description === "") return "";
  const { renderMarkdown } = await loadMarkdownRenderer();
  return renderMarkdown(description, { users: [], groups: [], streams: [], realmEmoji: [], realmUrl, previews: false }).html;
}
