import { requireEventHeader } from "./event-header.js";
import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

type ReviewboardBody = (payload: Payload) => string;

/** Each supported `X-ReviewBoard-Event` and its message. */
const REVIEWBOARD_EVENTS: Readonly<Record<string, ReviewboardBody>> = {
  review_request_published: (p) =>
    requestDetails(p, `**${request(p).get("links").get("submitter").get("title").str()}** opened ${requestLink(p)}:`),
  review_request_reopened: (p) =>
    requestDetails(p, `**${p.get("reopened_by").get("username").str()}** reopened ${requestLink(p)}:`),
  review_request_closed: (p) =>
    requestDetails(p, `**${p.get("closed_by").get("username").str()}** closed ${requestLink(p)}:`, [
      `**Close type**: ${p.get("close_type").str()}`,
    ]),
  review_published: (p) => {
    const review = p.get("review");
    const who = review.get("links").get("user").get("title").str();
    const head = `**${who}** [reviewed](${review.get("absolute_url").str()}) ${requestLink(p)}`;
    return withQuote(head, "Review", review.get("body_top").str());
  },
  reply_published: (p) => {
    const reply = p.get("reply");
    const links = reply.get("links");
    const who = links.get("user").get("title").str();
    const head = `**${who}** [replied](${links.get("self").get("href").str()}) to ${requestLink(p)}`;
    return withQuote(head, "Reply", reply.get("body_top").str());
  },
};

/**
 * Review Board webhooks (Zulip's `api_reviewboard_webhook`,
 * https://zulip.com/integrations/doc/reviewboard). The `X-ReviewBoard-Event`
 * header is the event type: review requests published, reopened and closed
 * (with description, status, reviewers and branch), reviews and replies
 * (with their text quoted); anything else is unsupported. The topic is the
 * review request's repository. Throws WebhookPayloadError when the header
 * or a needed field is missing.
 */
export const reviewboardIntegration: Integration = {
  name: "reviewboard",
  displayName: "ReviewBoard",
  handle(webhookRequest: WebhookRequest): WebhookResult {
    const eventType = requireEventHeader(webhookRequest, "X-ReviewBoard-Event");
    const body = REVIEWBOARD_EVENTS[eventType];
    if (body === undefined) return { kind: "unsupported", eventType };
    const payload = jsonPayload(webhookRequest);
    const content = body(payload);
    const topic = request(payload).get("links").get("repository").get("title").str();
    return { kind: "messages", eventType, messages: [{ topic, content }] };
  },
};

function request(payload: Payload): Payload {
  return payload.get("review_request");
}

/** `[#2: Summary](url)`. */
function requestLink(payload: Payload): string {
  const r = request(payload);
  return `[#${r.get("id").num()}: ${r.get("summary").str()}](${r.get("absolute_url").str()})`;
}

/** The head line, then the request's description, status, reviewers and branch in a quote. */
function requestDetails(payload: Payload, head: string, extra: string[] = []): string {
  const r = request(payload);
  const people = r
    .get("target_people")
    .list()
    .map((person) => `**${person.get("title").str()}**`);
  const branch = r.opt("branch").strOr("");
  const lines = [
    `**Description**: ${r.get("description").str()}`,
    `**Status**: ${r.get("status").str()}`,
    `**Target people**: ${people.length > 0 ? englishList(people) : "none"}`,
    ...extra,
    ...(branch !== "" ? [`**Branch**: ${branch}`] : []),
  ];
  return `${head}\n\`\`\` quote\n${lines.join("\n")}\n\`\`\``;
}

/** The head line, and the text quoted under a label when there is any. */
function withQuote(head: string, label: string, text: string): string {
  if (text.trim() === "") return `${head}.`;
  return `${head}:\n\n**${label}**:\n\`\`\` quote\n${text}\n\`\`\``;
}

/** `a`, `a and b`, `a, b, and c`. */
function englishList(items: string[]): string {
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;
}
