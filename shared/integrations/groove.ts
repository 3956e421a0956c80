import { requireEventHeader } from "./event-header.js";
import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** The topic every Groove message goes under. */
const GROOVE_TOPIC = "notifications";

type GrooveBody = (payload: Payload) => string | null;

/** Each supported `X-Groove-Event` and its message (null: a valid event that posts nothing). */
const GROOVE_EVENTS: Readonly<Record<string, GrooveBody>> = {
  ticket_started: (p) =>
    `${p.get("customer_name").str()} opened a new ticket ${ticketLink(p)}:\n\n${quote(p.get("summary").str())}`,
  ticket_assigned: (p) => {
    const state = p.get("state").str();
    const assignee = p.get("assignee").strOr(null);
    const group = p.get("assigned_group").strOr(null);
    // An assignment to nobody (both cleared) is not worth a message, as in Zulip.
    if (!assignee && !group) return null;
    const to = assignee && group ? `${assignee} (${group})` : (assignee || group)!;
    return `${ticketLink(p)} (${state === "opened" ? "open" : state}) was assigned to ${to}.`;
  },
  agent_replied: (p) => message(p, "replied to"),
  customer_replied: (p) => message(p, "replied to"),
  note_added: (p) => message(p, "left a note on"),
};

/**
 * Groove help-desk webhooks (Zulip's `api_groove_webhook`,
 * https://zulip.com/integrations/doc/groove). The `X-Groove-Event` header
 * is the event type: new tickets, assignments (an assignment to nobody is
 * ignored), agent and customer replies and notes; anything else is
 * unsupported. Everything goes under the topic "notifications". Throws
 * WebhookPayloadError when the header or a needed field is missing.
 */
export const grooveIntegration: Integration = {
  name: "groove",
  displayName: "Groove",
  handle(request: WebhookRequest): WebhookResult {
    const eventType = requireEventHeader(request, "X-Groove-Event");
    const body = GROOVE_EVENTS[eventType];
    if (body === undefined) return { kind: "unsupported", eventType };
    const content = body(jsonPayload(request));
    if (content === null) return { kind: "ignored", eventType };
    return { kind: "messages", eventType, messages: [{ topic: GROOVE_TOPIC, content }] };
  },
};

/** `[#9: Title](app url)`. */
function ticketLink(payload: Payload): string {
  return `[#${payload.get("number").num()}: ${payload.get("title").str()}](${payload.get("app_url").str()})`;
}

/**
 * A reply or note: Groove names its author and ticket only by API links
 * (`.../v1/agents/<email>`, `.../v1/tickets/<number>`), whose last segment
 * is what the message shows.
 */
function message(payload: Payload, action: string): string {
  const links = payload.get("links");
  const author = lastSegment(links.get("author").get("href").str());
  const ticket = lastSegment(links.get("ticket").get("href").str());
  const link = `[ticket #${ticket}](${payload.get("app_ticket_url").str()})`;
  return `${author} ${action} ${link}:\n\n${quote(payload.get("plain_text_body").str())}`;
}

function lastSegment(url: string): string {
  return url.replace(/\/+$/, "").split("/").pop() ?? url;
}

function quote(text: string): string {
  return `\`\`\` quote\n${text}\n\`\`\``;
}
