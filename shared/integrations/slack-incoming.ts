import { WebhookPayloadError, jsonPayload, type Payload } from "./payload.js";
import { globalTimeFromEpoch, singleMessage, slackMrkdwnToMarkdown } from "./format.js";
import type { Integration } from "./types.js";

/** Block types Slack documents; those other than header, divider, image, context and section render nothing. */
const BLOCK_TYPES = [
  "actions", "context", "call", "contact_card", "condition", "divider", "file",
  "header", "image", "input", "section", "table", "rich_text",
];

/** Blank-line-separated pieces, trimmed, empty ones dropped. */
function joinPieces(pieces: string[]): string {
  return pieces.map((p) => p.trim()).filter((p) => p !== "").join("\n\n");
}

/** A string that is present and not empty (Slack sends many optional fields as `null` or `""`). */
function filled(value: Payload): string | null {
  if (!value.exists()) return null;
  const text = value.str();
  return text === "" ? null : text;
}

/** A Block Kit text object: `plain_text` as it is, `mrkdwn` converted. */
function textObject(value: Payload, plainOnly = false): string {
  const type = value.get("type").str();
  const allowed = plainOnly ? ["plain_text"] : ["plain_text", "mrkdwn"];
  if (!allowed.includes(type)) throw new WebhookPayloadError(`${value.get("type").path} is not ${allowed.join(" or ")}`);
  const text = value.get("text").str();
  return type === "mrkdwn" ? slackMrkdwnToMarkdown(text) : text;
}

/** A block element: only images render (interactive elements have no Zulip equivalent). */
function blockElement(element: Payload): string {
  if (element.get("type").str() !== "image") return "";
  return `[${element.get("alt_text").str()}](${element.get("image_url").str()})`;
}

/** Section fields: one field as it is, several as a two-column table (which cannot hold newlines or pipes). */
function sectionFields(fields: Payload[]): string {
  const texts = fields.map((f) => textObject(f));
  if (texts.length === 1) return texts[0]!;
  const cells = texts.map((t) => t.replaceAll("\n", " ").replaceAll("|", " "));
  const rows = ["| | |", "|-|-|"];
  for (let i = 0; i < cells.length; i += 2) rows.push(`| ${cells[i]} | ${cells[i + 1] ?? ""} |`);
  return rows.join("\n");
}

/** One Block Kit block (https://api.slack.com/reference/block-kit/blocks). */
function renderBlock(block: Payload): string {
  const type = block.get("type").str();
  if (!BLOCK_TYPES.includes(type)) throw new WebhookPayloadError(`${block.get("type").path} is not a known block type`);
  switch (type) {
    case "context": {
      const elements = block.opt("elements");
      if (!elements.exists()) return "";
      // Slack packs these side by side; stacking them reads as well.
      return joinPieces(elements.list().map((e) => (e.get("type").str() === "image" ? blockElement(e) : textObject(e))));
    }
    case "divider":
      return "----";
    case "header":
      return `## ${textObject(block.get("text"), true)}`;
    case "image": {
      const title = block.opt("title");
      const alt = title.exists() ? textObject(title, true) : block.get("alt_text").str();
      return `[${alt}](${block.get("image_url").str()})`;
    }
    case "section": {
      const pieces: string[] = [];
      if (block.opt("text").exists()) pieces.push(textObject(block.get("text")));
      if (block.opt("accessory").exists()) pieces.push(blockElement(block.get("accessory")));
      if (block.opt("fields").exists()) pieces.push(sectionFields(block.get("fields").list()));
      return joinPieces(pieces);
    }
    default:
      return "";
  }
}

/** One legacy attachment (https://api.slack.com/reference/messaging/attachments). */
function renderAttachment(attachment: Payload): string {
  const pieces: string[] = [];
  const title = filled(attachment.opt("title"));
  if (title !== null) {
    const link = filled(attachment.opt("title_link"));
    pieces.push(link !== null ? `## [${title}](${link})` : `## ${title}`);
  }
  for (const key of ["pretext", "text"]) {
    const text = filled(attachment.opt(key));
    if (text !== null) pieces.push(slackMrkdwnToMarkdown(text));
  }
  if (attachment.opt("fields").exists()) {
    const lines = attachment.get("fields").list().flatMap((field) => {
      const name = filled(field.opt("title"));
      const value = filled(field.opt("value"));
      if (name !== null && value !== null) return [`**${name}**: ${slackMrkdwnToMarkdown(value)}`];
      if (name !== null) return [`**${name}**`];
      if (value !== null) return [slackMrkdwnToMarkdown(value)];
      return [];
    });
    pieces.push(lines.join("\n"));
  }
  if (attachment.opt("blocks").exists()) pieces.push(...attachment.get("blocks").list().map(renderBlock));
  const image = filled(attachment.opt("image_url"));
  if (image !== null) pieces.push(`[](${image})`);
  const footer = filled(attachment.opt("footer"));
  if (footer !== null) pieces.push(slackMrkdwnToMarkdown(footer));
  const ts = attachment.opt("ts");
  if (ts.exists() && ts.value !== 0) {
    // Slack sends `ts` as seconds, sometimes as a string holding a float.
    const seconds = typeof ts.value === "string" ? Number.parseFloat(ts.value) : ts.num();
    if (!Number.isFinite(seconds)) throw new WebhookPayloadError(`${ts.path} is not a number`);
    // Zulip writes the instant as Python's isoformat() does.
    pieces.push(globalTimeFromEpoch(Math.trunc(seconds), "s", "+00:00"));
  }
  return joinPieces(pieces);
}

/**
 * Slack-compatible incoming webhooks (https://zulip.com/integrations/doc/slack_incoming;
 * Zulip's `api_slack_incoming_webhook`): a JSON body, or a form with the
 * JSON in its `payload` field. Blocks and attachments render as Markdown
 * (headers, dividers, images, field tables), else `text` (after the
 * `icon_emoji`) converted from Slack mrkdwn. Topic: the Slack `channel`
 * without its `#`/`@`, else "(no topic)". A payload with nothing to show is
 * ignored. No event type.
 */
export const slackIncomingIntegration: Integration = {
  name: "slack_incoming",
  displayName: "SlackIncoming",
  // Slack's own API answers `{"ok": true}`, and Slack-compatible senders look for it.
  successFields: { ok: true },
  handle(request) {
    if (request.contentType !== "application/json" && !new URLSearchParams(request.body).has("payload")) {
      throw new WebhookPayloadError("Missing 'payload' argument");
    }
    const payload = jsonPayload(request);
    const channel = payload.opt("channel");
    const topic = channel.exists() ? channel.str().replace(/^[@#]/, "") : "(no topic)";
    const pieces: string[] = [];
    if (payload.opt("blocks").exists()) pieces.push(...payload.get("blocks").list().map(renderBlock));
    if (payload.opt("attachments").exists()) pieces.push(...payload.get("attachments").list().map(renderAttachment));
    let body = joinPieces(pieces);
    const text = filled(payload.opt("text"));
    if (body === "" && text !== null) {
      const emoji = filled(payload.opt("icon_emoji"));
      body = slackMrkdwnToMarkdown(`${emoji !== null ? `${emoji} ` : ""}${text}`.trim());
    }
    if (body === "") return { kind: "ignored", eventType: null };
    return singleMessage(null, topic === "" ? "(no topic)" : topic, body);
  },
};
