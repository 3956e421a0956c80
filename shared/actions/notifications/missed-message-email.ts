import type { MessageRecord } from "../../data/records/message.js";
import type { OutgoingEmail } from "../../mail/mailer.js";
import { html, layoutEmail, SafeHtml } from "../../mail/template.js";
import { dmNarrowUrl, topicNarrowUrl } from "../../markdown/url.js";
import { isResolvedTopic, unresolvedName } from "../../domain/topic-resolution.js";

/**
 * The `missed_message` email of one conversation (Zulip's
 * `do_send_missedmessage_events_reply_in_zulip` and the
 * `zerver/emails/missed_message` templates, in our own words): the
 * subject Zulip forms, each message with its sender's name and rendered
 * content (links made absolute, inline image previews left out: the mail
 * reader has no session to load them), a link to the conversation in the
 * web app and one to the notification settings. No reply-by-email.
 */

/** Messages of one conversation of a batch, oldest first, with why each notified. */
export interface MissedConversation {
  kind: "stream" | "private" | "group";
  messages: MessageRecord[];
  /** Message ID → trigger (`shared/domain/notification-data.ts`); messages without one are context. */
  triggers: Map<number, string>;
  /** The stream as it is now (stream messages). */
  stream?: { stream_id: number; name: string };
}

/** Who the email goes to, and what they allow in it. */
export interface MissedMessageRecipient {
  user_id: number;
  delivery_email: string;
  full_name: string;
  /** The organization and the user allow message content in emails (Zulip's `message_content_allowed_in_missedmessage_emails`). */
  includeContent: boolean;
  /** `realm_name_in_email_notifications_policy` says to name the organization in the subject. */
  includeRealmName: boolean;
}

/** Zulip's way of naming a group conversation's other members: "A and B", "A, B, and C", "A, B, and 3 others". */
export function groupDisplayName(names: readonly string[]): string {
  if (names.length <= 2) return names.join(" and ");
  if (names.length === 3) return `${names[0]}, ${names[1]}, and ${names[2]}`;
  return `${names[0]}, ${names[1]}, and ${names.length - 2} others`;
}

/** The conversation's other participants (direct messages), from the stored display recipient. */
function othersOf(message: MessageRecord, userId: number): { id: number; full_name: string }[] {
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  return recipients.filter((r) => r.id !== userId).map((r) => ({ id: r.id, full_name: r.full_name }));
}

/** Distinct sender names, in order of first message. */
function senderNames(messages: readonly MessageRecord[]): string[] {
  return [...new Set(messages.map((m) => m.sender_full_name))];
}

/**
 * The subject (Zulip's `missed_message.subject.txt`): `DMs with <sender>`,
 * `Group DMs with <others>`, `#<stream> > <topic>` (`[resolved] ` before a
 * resolved topic's bare name), `New messages` without content; the
 * organization's name in brackets when the user's policy asks.
 */
export function missedMessageSubject(conv: MissedConversation, to: MissedMessageRecipient, realmName: string): string {
  const first = conv.messages[0]!;
  let subject: string;
  if (!to.includeContent) subject = "New messages";
  else if (conv.kind === "group") subject = `Group DMs with ${groupDisplayName(othersOf(first, to.user_id).map((u) => u.full_name))}`;
  else if (conv.kind === "private") subject = `DMs with ${senderNames(conv.messages).join(", ")}`;
  else {
    const channel = conv.stream?.name ?? String(first.display_recipient);
    subject = isResolvedTopic(first.topic)
      ? `[resolved] #${channel} > ${unresolvedName(first.topic)}`
      : `#${channel} > ${first.topic}`;
  }
  return to.includeRealmName ? `${subject} [${realmName}]` : subject;
}

/** Why the email was sent, from the most salient trigger of the batch. */
function reasonLine(conv: MissedConversation): string {
  const triggers = new Set(conv.triggers.values());
  if (conv.kind === "private") return "You received direct messages while you were away.";
  if (conv.kind === "group") return "You received messages in a group conversation while you were away.";
  if (triggers.has("mentioned")) return "You were mentioned while you were away.";
  if (triggers.has("alert_word")) return "A message contains one of your alert words.";
  if ([...triggers].some((t) => t.includes("wildcard"))) return "Everyone in the conversation was mentioned while you were away.";
  if (triggers.has("followed_topic_email_notify")) return "There are new messages in a topic you follow.";
  return "You asked for email notifications of new messages in this channel.";
}

/** The conversation's web app URL (`<realm>/#narrow/…`). */
export function conversationUrl(conv: MissedConversation, userId: number, realmUrl: string): string {
  const first = conv.messages[0]!;
  if (conv.kind !== "stream") return realmUrl + dmNarrowUrl(othersOf(first, userId));
  const channel = conv.stream ?? { stream_id: first.stream_id ?? 0, name: String(first.display_recipient) };
  return realmUrl + topicNarrowUrl(channel.stream_id, channel.name, first.topic);
}

/**
 * Replaces each `<div class="<className>"…>…</div>` (to its matching close,
 * counting nested `div`s: the renderer's output is well formed) with
 * `replacement`.
 */
function replaceDivs(rendered: string, className: string, replacement: string): string {
  const open = new RegExp(`<div class="${className}"[^>]*>`, "g");
  let out = "";
  let from = 0;
  for (let m = open.exec(rendered); m; m = open.exec(rendered)) {
    if (m.index < from) continue;
    let depth = 1;
    const tags = /<div\b[^>]*>|<\/div>/g;
    tags.lastIndex = m.index + m[0].length;
    let end = rendered.length;
    for (let t = tags.exec(rendered); t; t = tags.exec(rendered)) {
      depth += t[0] === "</div>" ? -1 : 1;
      if (depth === 0) {
        end = t.index + t[0].length;
        break;
      }
    }
    out += rendered.slice(from, m.index) + replacement;
    from = end;
    open.lastIndex = end;
  }
  return out + rendered.slice(from);
}

/** What an email shows instead of a spoiler's hidden content. */
const SPOILER_NOTE = '<div class="spoiler-content"><p>(hidden content: open the conversation to see it)</p></div>';

/**
 * Zulip's `relative_to_full_url` and `fix_spoilers_in_html` on our rendered
 * HTML (already sanitized by the Markdown renderer): inline image previews
 * dropped (the mail reader has no session to load them), a spoiler's hidden
 * content replaced by a note, relative `href`/`src` values (`/…`,
 * `#narrow/…`, `user_uploads/…`) made absolute to the organization's URL.
 */
export function absoluteContentHtml(rendered: string, realmUrl: string): string {
  const withoutPreviews = replaceDivs(replaceDivs(rendered, "message_inline_image", ""), "spoiler-content", SPOILER_NOTE);
  return withoutPreviews.replace(/\s(href|src)="([^"]*)"/g, (whole, attr: string, value: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith("//")) return whole;
    const path = value.startsWith("/") ? value : `/${value}`;
    return ` ${attr}="${realmUrl}${path}"`;
  });
}

/** Zulip's `fix_spoilers_in_text`: a spoiler fence's lines replaced by a note, its header line kept. */
export function hideSpoilersInText(content: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of content.split("\n")) {
    if (fence !== undefined) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) {
        fence = undefined;
        out.push(line);
      }
      continue;
    }
    const open = /^\s*(`{3,}|~{3,})\s*spoiler\b/.exec(line);
    if (open) {
      fence = open[1]!;
      out.push(line, "(hidden content: open the conversation to see it)");
      continue;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** The plain-text form of one message: its Markdown, spoilers hidden, upload links absolute, quoted. */
function textContent(message: MessageRecord, realmUrl: string): string {
  const content = hideSpoilersInText(message.content).replace(/(^|[^\w/])\/?user_uploads\//g, (_m, before: string) => `${before}${realmUrl}/user_uploads/`);
  return content
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

/**
 * Builds the `missed_message` email of one conversation.
 * @param realm the organization's name and URL
 * @returns the `send_email` job's payload
 */
export function missedMessageEmail(
  realm: { id: number; name: string; url: string },
  to: MissedMessageRecipient,
  conv: MissedConversation,
): OutgoingEmail {
  const subject = missedMessageSubject(conv, to, realm.name);
  const link = conversationUrl(conv, to.user_id, realm.url);
  const settingsUrl = `${realm.url}/#settings/notifications`;
  const reason = reasonLine(conv);
  const count = conv.messages.filter((m) => conv.triggers.has(m.id)).length;

  const textParts: string[] = [reason, ""];
  const htmlParts: SafeHtml[] = [html`<p>${reason}</p>`];
  if (to.includeContent) {
    for (const m of conv.messages) {
      textParts.push(`${m.sender_full_name}:`, textContent(m, realm.url), "");
      const content = new SafeHtml(absoluteContentHtml(m.rendered_content, realm.url));
      htmlParts.push(
        html`<div style="margin:12px 0;padding-left:12px;border-left:3px solid #ddd"><div style="font-weight:600">${m.sender_full_name}</div><div>${content}</div></div>`,
      );
    }
  } else {
    const line = `You have ${count} new ${count === 1 ? "message" : "messages"}. Message content is left out of notification emails by your settings or your organization's.`;
    textParts.push(line, "");
    htmlParts.push(html`<p>${line}</p>`);
  }
  textParts.push(`Open the conversation: ${link}`, "", `Change which emails you get: ${settingsUrl}`);
  htmlParts.push(
    html`<p><a href="${link}" style="display:inline-block;padding:8px 16px;background:#6492fe;color:#fff;border-radius:4px;text-decoration:none">Open the conversation</a></p>`,
    html`<p style="font-size:13px;color:#666"><a href="${settingsUrl}" style="color:#666">Change which emails you get</a></p>`,
  );
  const body = layoutEmail({ name: realm.name, url: realm.url }, { subject, text: textParts.join("\n"), html: html`${htmlParts}` });
  return {
    realm_id: realm.id,
    template: "missed_message",
    to: { email: to.delivery_email, user_id: to.user_id, name: to.full_name },
    ...body,
  };
}
