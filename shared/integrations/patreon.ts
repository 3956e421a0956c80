import { requireEventHeader } from "./event-header.js";
import { jsonPayload, type Payload, WebhookPayloadError } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** Patreon's deprecated v1 events, which Zulip deliberately ignores. */
const PATREON_IGNORED = new Set(["pledges:create", "pledges:update", "pledges:delete"]);

/** The topic every Patreon message goes under. */
const PATREON_TOPIC = "membership notifications";

type PatreonBody = (member: PatreonMember) => string | null;

/**
 * Each supported `X-Patreon-Event` and its message, or null for a valid
 * event Zulip deliberately does not post (a failed or pending charge, a
 * declined patron).
 */
const PATREON_EVENTS: Readonly<Record<string, PatreonBody>> = {
  "members:create": (m) =>
    m.chargeStatus === null && m.patronStatus === null ? `${m.name} has joined as a member!` : null,
  "members:update": (m) =>
    isPaidOrUncharged(m) && (m.patronStatus === "active_patron" || m.patronStatus === "former_patron")
      ? `${m.name}'s membership has been updated to ${m.patronStatus.replaceAll("_", " ")}.`
      : null,
  "members:delete": (m) =>
    isPaidOrUncharged(m) && m.patronStatus !== "declined_patron" ? `${m.name}'s membership has ended.` : null,
  "members:pledge:create": (m) =>
    isPaidOrUncharged(m) && m.amountCents > 0
      ? `${m.name} has pledged ${dollars(m)} per ${m.payPer()}. :tada:\nTotal number of patrons: ${m.patronCount()}`
      : null,
  "members:pledge:update": (m) =>
    isPaidOrUncharged(m) && m.amountCents > 0
      ? `${m.name} has updated their pledge to ${dollars(m)} per ${m.payPer()}. :gear:`
      : null,
  "members:pledge:delete": (m) =>
    m.chargeStatus === null || m.chargeStatus === "Paid" || m.chargeStatus === "Deleted"
      ? `${m.name}'s pledge has been cancelled. :cross_mark:\nTotal number of patrons: ${m.patronCount()}`
      : null,
};

/**
 * Patreon membership webhooks (Zulip's `api_patreon_webhook`,
 * https://zulip.com/integrations/doc/patreon). The `X-Patreon-Event` header
 * is the event type: the six `members:*` events are reported under the topic
 * "membership notifications" (unless their charge failed or is pending,
 * which is ignored), the deprecated `pledges:*` events are ignored, anything
 * else is unsupported. Throws WebhookPayloadError when the header or a
 * needed field is missing.
 */
export const patreonIntegration: Integration = {
  name: "patreon",
  displayName: "Patreon",
  handle(request: WebhookRequest): WebhookResult {
    const eventType = requireEventHeader(request, "X-Patreon-Event");
    if (PATREON_IGNORED.has(eventType)) return { kind: "ignored", eventType };
    const body = PATREON_EVENTS[eventType];
    if (body === undefined) return { kind: "unsupported", eventType };
    const content = body(patreonMember(jsonPayload(request)));
    if (content === null) return { kind: "ignored", eventType };
    return { kind: "messages", eventType, messages: [{ topic: PATREON_TOPIC, content }] };
  },
};

interface PatreonMember {
  name: string;
  chargeStatus: string | null;
  patronStatus: string | null;
  amountCents: number;
  /** The campaign's billing period ("month"); read only by the events that show it. */
  payPer(): string;
  patronCount(): number;
}

function patreonMember(payload: Payload): PatreonMember {
  const attributes = payload.get("data").get("attributes");
  const campaign = () => {
    const first = payload.get("included").list()[0];
    if (first === undefined) throw new WebhookPayloadError('payload["included"][0] is missing');
    return first.get("attributes");
  };
  return {
    name: attributes.get("full_name").str(),
    chargeStatus: attributes.get("last_charge_status").strOr(null),
    patronStatus: attributes.get("patron_status").strOr(null),
    amountCents: attributes.get("currently_entitled_amount_cents").num(),
    payPer: () => campaign().get("pay_per_name").str(),
    patronCount: () => campaign().get("patron_count").num(),
  };
}

function isPaidOrUncharged(member: PatreonMember): boolean {
  return member.chargeStatus === null || member.chargeStatus === "Paid";
}

/** `$5.00`: Patreon amounts are in cents. */
function dollars(member: PatreonMember): string {
  return `$${(member.amountCents / 100).toFixed(2)}`;
}
