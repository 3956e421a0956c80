import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** Categories of Stripe events Zulip deliberately does not report (Connect, balance, orders, ...). */
const STRIPE_IGNORED_CATEGORIES = new Set([
  "application_fee",
  "balance",
  "checkout_beta",
  "coupon",
  "payment_intent",
  "payout",
  "plan",
  "product",
  "recipient",
  "reporting",
  "review",
  "sigma",
  "sku",
  "source",
  "subscription_schedule",
  "topup",
  "transfer",
]);

/** Currencies Stripe counts in whole units rather than cents. */
const STRIPE_ZERO_DECIMAL = new Set(
  "bif djf jpy krw pyg vnd xaf xpf clp gnf kmf mga rwf vuv xof".split(" "),
);

/** Object id prefix → display name and dashboard path (null: no page of its own). */
const STRIPE_OBJECTS: Readonly<Record<string, [string, string | null]>> = {
  ch: ["Charge", "charges"],
  cus: ["Customer", "customers"],
  dp: ["Dispute", "disputes"],
  du: ["Dispute", "disputes"],
  file: ["File", "files"],
  link: ["File link", "file_links"],
  pi: ["Payment intent", "payment_intents"],
  po: ["Payout", "payouts"],
  prod: ["Product", "products"],
  re: ["Refund", "refunds"],
  tok: ["Token", "tokens"],
  ba: ["Bank account", null],
  card: ["Card", null],
  src: ["Source", null],
  in: ["Invoice", "invoices"],
  ii: ["Invoice item", "invoiceitems"],
  sub: ["Subscription", "subscriptions"],
  si: ["Subscription item", "subscription_items"],
  mbur: ["Usage record", null],
  py: ["Payment", "payments"],
  pyr: ["Refund", "refunds"],
};

const DAY_SECONDS = 24 * 60 * 60;

/** What an event resolves to: a message, or nothing to post. */
type StripeOutcome = { topic: string; content: string } | "ignored" | "unsupported";

/**
 * Stripe events (Zulip's `api_stripe_webhook`,
 * https://zulip.com/integrations/doc/stripe). The payload's `type`
 * (`charge.succeeded`, `customer.subscription.created`, ...) is the event
 * type. Charges, disputes, refunds, customers (and their discounts and
 * subscriptions), invoices and invoice items are reported; account updates
 * without changed attributes, updates whose only changes are uninteresting,
 * and the categories Zulip does not implement are ignored; other types are
 * unsupported. The topic is the customer's id where there is one, else the
 * resource's family ("charges", "disputes", "refunds", "account updates").
 * Object ids link to the Stripe dashboard; amounts are shown in the
 * currency's units; timestamps in changed attributes as UTC dates. Throws
 * WebhookPayloadError when a needed field is missing.
 */
export const stripeIntegration: Integration = {
  name: "stripe",
  displayName: "Stripe",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const eventType = payload.get("type").str();
    const outcome = stripeOutcome(payload, eventType);
    if (outcome === "ignored" || outcome === "unsupported") return { kind: outcome, eventType };
    return { kind: "messages", eventType, messages: [outcome] };
  },
};

function stripeOutcome(payload: Payload, eventType: string): StripeOutcome {
  const parts = eventType.split(".");
  if (parts.length < 2 || parts.length > 3) return "unsupported";
  const [category, resource, event] = parts.length === 3 ? parts : [parts[0]!, parts[0]!, parts[1]!];
  if (STRIPE_IGNORED_CATEGORIES.has(category!) || category!.startsWith("issuing") || category!.startsWith("order")) {
    return "ignored";
  }
  const data = payload.get("data");
  const object = data.get("object");
  const customer = object.opt("customer").strOr(null);
  const topic = (fallback: string) => customer ?? fallback;
  const verbed = event!.replaceAll("_", " ");
  /** `<Object link> <verbed>`, with the changed attributes for an update (less the ignored ones). */
  const headline = (ignore: string[] = []): string | null => {
    const line = `${stripeLink(object.get("id").str())} ${verbed}`;
    if (event !== "updated") return line;
    const changes = changedAttributes(data, object, ignore);
    return changes === null ? null : `${line}${changes}`;
  };

  switch (category) {
    case "account": {
      if (resource !== "account") return "ignored";
      if (event !== "updated" || !data.opt("previous_attributes").exists()) return "ignored";
      const changes = changedAttributes(data, object, []);
      return changes === null ? "ignored" : { topic: "account updates", content: changes.trimStart() };
    }
    case "charge":
      if (resource === "charge") {
        let content = `${stripeLink(object.get("id").str())} for ${amountOf(object, "amount")} ${event}`;
        const failure = object.opt("failure_code").strOr(null);
        if (failure) content += `. Failure code: ${failure}`;
        return { topic: customer ?? "charges", content };
      }
      if (resource === "dispute") {
        const line = headline();
        if (line === null) return "ignored";
        return { topic: "disputes", content: `${line}. Status: ${object.get("status").str().replaceAll("_", " ")}.` };
      }
      if (resource === "refund") {
        const refund = stripeLink(object.get("id").str(), true);
        const charge = stripeLink(object.get("charge").str(), true);
        return { topic: "refunds", content: `A ${refund} of ${amountOf(object, "amount")} for a ${charge} was updated.` };
      }
      return "unsupported";
    case "customer":
      return customerOutcome(payload, object, resource!, event!, topic, headline);
    case "file": {
      const line = headline();
      if (line === null) return "ignored";
      const purpose = object.get("purpose").str().replaceAll("_", " ");
      return { topic: "files", content: `${line} (${purpose}).\nTitle: ${object.get("title").str()}` };
    }
    case "invoice":
      return invoiceOutcome(data, object, event!, topic("invoices"), headline);
    case "invoiceitem": {
      const line = headline(["description", "invoice"]);
      if (line === null) return "ignored";
      const content = event === "created" ? `${line} for ${amountOf(object, "amount")}` : line;
      return { topic: topic("invoice items"), content };
    }
    default:
      return "unsupported";
  }
}

function customerOutcome(
  payload: Payload,
  object: Payload,
  resource: string,
  event: string,
  topic: (fallback: string) => string,
  headline: (ignore?: string[]) => string | null,
): StripeOutcome {
  if (resource === "customer") {
    let content = headline(["delinquent", "currency", "default_source"]);
    if (content === null) return "ignored";
    if (event === "created") {
      const email = object.opt("email").strOr("");
      if (email !== "") content += `\nEmail: ${email}`;
      const metadata = object.opt("metadata");
      if (metadata.exists()) for (const key of metadata.keys()) content += `\n${key}: ${metadata.get(key).str()}`;
    }
    return { topic: object.get("id").str(), content };
  }
  if (resource === "discount") {
    const coupon = object.get("coupon");
    const link = `[${coupon.get("name").str()}](https://dashboard.stripe.com/coupons/${coupon.get("id").str()})`;
    return { topic: topic("discounts"), content: `Discount ${event.replaceAll("_", " ")} (${link}).` };
  }
  if (resource === "source") {
    const line = headline();
    return line === null ? "ignored" : { topic: topic("sources"), content: line };
  }
  if (resource === "subscription") {
    let content = headline();
    if (content === null) return "ignored";
    if (event === "trial_will_end") {
      // Counted from the event's own time (Zulip counts from the time it receives it).
      const seconds = object.get("trial_end").num() - payload.get("created").num();
      content += ` in ${Math.floor((seconds + DAY_SECONDS / 2) / DAY_SECONDS)} days`;
    }
    if (event === "created") {
      const plan = object.opt("plan");
      if (plan.exists()) {
        const url = `https://dashboard.stripe.com/plans/${plan.get("id").str()}`;
        const nickname = plan.opt("nickname").strOr(null);
        content += `\nPlan: ${nickname === null ? url : `[${nickname}](${url})`}`;
      }
      const quantity = object.opt("quantity").numOr(0);
      if (quantity) content += `\nQuantity: ${quantity}`;
      const billing = object.opt("billing").strOr(null);
      if (billing !== null) content += `\nBilling method: ${billing.replaceAll("_", " ")}`;
    }
    return { topic: topic("subscriptions"), content };
  }
  return "unsupported";
}

function invoiceOutcome(
  data: Payload,
  object: Payload,
  event: string,
  topic: string,
  headline: (ignore?: string[]) => string | null,
): StripeOutcome {
  let content: string | null;
  if (event === "upcoming") {
    content = "Upcoming invoice created";
  } else if (event === "updated" && becamePaid(data, object)) {
    content = `[Invoice](https://dashboard.stripe.com/invoices/${object.get("id").str()}) is now paid`;
  } else {
    content = headline(["lines", "description", "number", "finalized_at", "status_transitions", "payment_intent"]);
  }
  if (content === null) return "ignored";
  if (event === "created") {
    const reason = object.get("billing_reason").str().replaceAll("_", " ");
    content += ` (${reason})\nTotal: ${amountOf(object, "total")}\nAmount due: ${amountOf(object, "amount_due")}`;
  }
  return { topic, content };
}

/** Whether an invoice update is the one that settled it in full. */
function becamePaid(data: Payload, object: Payload): boolean {
  const previous = data.opt("previous_attributes");
  if (!previous.exists()) return false;
  const wasPaid = previous.opt("paid");
  return (
    wasPaid.exists() &&
    wasPaid.bool() === false &&
    object.get("paid").bool() &&
    object.get("amount_paid").num() !== 0 &&
    object.get("amount_remaining").num() === 0
  );
}

/**
 * `\n* Status is now active` for each changed attribute (sorted, less the
 * ignored ones), or null when nothing worth saying changed.
 */
function changedAttributes(data: Payload, object: Payload, ignore: string[]): string | null {
  const names = data
    .get("previous_attributes")
    .keys()
    .filter((name) => !ignore.includes(name))
    .sort();
  if (names.length === 0) return null;
  return names
    .map((name) => {
      const label = name.replaceAll("_", " ");
      return `\n* ${label.charAt(0).toUpperCase()}${label.slice(1)} is now ${stripeValue(object.opt(name).value)}`;
    })
    .join("");
}

/** A changed attribute's new value: Unix times in Stripe's range as UTC dates, the rest as text. */
function stripeValue(value: unknown): string {
  if (value === undefined || value === null) return "none";
  if (typeof value === "number" && Number.isInteger(value) && value > 1_500_000_000 && value < 2_000_000_000) {
    const d = new Date(value * 1000);
    const month = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ")[d.getUTCMonth()];
    const pad = (n: number) => String(n).padStart(2, "0");
    const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    return `${month} ${pad(d.getUTCDate())}, ${d.getUTCFullYear()}, ${time} UTC`;
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** `$1.00`, `10.01 AUD`, `1000 JPY`: Stripe amounts are in the currency's smallest unit. */
function amountOf(object: Payload, field: string): string {
  const amount = object.get(field).num();
  const currency = object.get("currency").str();
  const units = STRIPE_ZERO_DECIMAL.has(currency) ? String(amount) : (amount / 100).toFixed(2);
  return currency === "usd" ? `$${units}` : `${units} ${currency.toUpperCase()}`;
}

/** `[Charge](https://dashboard.stripe.com/charges/ch_1)`, named by the id's prefix. */
function stripeLink(id: string, lower = false): string {
  const known = STRIPE_OBJECTS[id.split("_")[0]!];
  if (known === undefined) return `\`${id}\``;
  const name = lower ? known[0].toLowerCase() : known[0];
  return known[1] === null ? name : `[${name}](https://dashboard.stripe.com/${known[1]}/${id})`;
}
