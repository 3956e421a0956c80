import { jsonPayload, type Payload } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** How each kind of Taiga item is named in messages. */
const TAIGA_NOUNS: Readonly<Record<string, string>> = {
  userstory: "user story",
  task: "task",
  issue: "issue",
  epic: "epic",
  milestone: "sprint",
};

/** The topic Zulip posts Taiga notifications under (a `topic` parameter overrides it). */
const TAIGA_TOPIC = "General";

/**
 * Taiga project webhooks (Zulip's `api_taiga_webhook`,
 * https://zulip.com/integrations/doc/taiga): user stories, tasks, issues,
 * epics, sprints and related user stories created, deleted or changed, and
 * the sender's test request. A change carries several attribute changes
 * (and possibly a comment): each reported one is a line, lines sorted as
 * Zulip sorts them; changes Zulip does not report (ordering, finish dates,
 * blocked notes, unchanged sprint dates) post nothing, and a request with
 * nothing to report is ignored. No event type, as in Zulip. Actors and
 * items link to Taiga when the payload has their permalinks. Throws
 * WebhookPayloadError when a needed field is missing.
 */
export const taigaIntegration: Integration = {
  name: "taiga",
  displayName: "Taiga",
  handle(request: WebhookRequest): WebhookResult {
    const payload = jsonPayload(request);
    const action = payload.get("action").str();
    const type = payload.get("type").str();
    const by = payload.get("by");
    const actor = taigaLink(by.get("full_name").str(), by.opt("permalink").strOr(null), false);
    let lines: string[];
    if (action === "test") {
      lines = [`${actor} sent a test request from the Taiga integration.`];
    } else if (type === "relateduserstory" && (action === "create" || action === "delete")) {
      const data = payload.get("data");
      const story = taigaItem(data.get("user_story"));
      const epic = taigaItem(data.get("epic"));
      lines = [
        action === "create"
          ? `${actor} added the related user story ${story} to the epic ${epic}.`
          : `${actor} removed the related user story ${story} from the epic ${epic}.`,
      ];
    } else {
      const noun = TAIGA_NOUNS[type];
      if (noun === undefined) return { kind: "unsupported", eventType: type };
      const item = `${noun} ${taigaItem(payload.get("data"))}`;
      if (action === "create") lines = [`${actor} created ${item}.`];
      else if (action === "delete") lines = [`${actor} deleted ${item}.`];
      else if (action === "change") lines = changeLines(payload.get("change"), actor, noun, item);
      else return { kind: "unsupported", eventType: action };
    }
    if (lines.length === 0) return { kind: "ignored", eventType: null };
    return { kind: "messages", eventType: null, messages: [{ topic: TAIGA_TOPIC, content: lines.sort().join("\n") }] };
  },
};

/** One line per reported attribute change, and one for a comment. */
function changeLines(change: Payload, actor: string, noun: string, item: string): string[] {
  const lines: string[] = [];
  const diff = change.opt("diff");
  if (diff.exists()) {
    for (const key of diff.keys()) {
      const line = changeLine(key, diff.get(key), noun, item);
      if (line !== null) lines.push(`${actor} ${line}`);
    }
  }
  if (change.opt("comment").strOr("") !== "") lines.push(`${actor} commented on ${item}.`);
  return lines;
}

/** What one changed attribute says (after the actor), or null for a change Zulip does not report. */
function changeLine(key: string, value: Payload, noun: string, item: string): string | null {
  const from = () => value.opt("from").strOr(null);
  const to = () => value.opt("to").strOr(null);
  switch (key) {
    case "description_diff":
      return `updated the description of ${item}.`;
    case "points":
      return `changed the estimation of ${item}.`;
    case "assigned_to": {
      const [old, now] = [from(), to()];
      if (!old) return `assigned ${item} to ${now}.`;
      if (!now) return `unassigned ${item}.`;
      return `reassigned ${item} from ${old} to ${now}.`;
    }
    case "milestone": {
      const [old, now] = [from(), to()];
      if (!old) return `added ${item} to sprint ${now}.`;
      if (!now) return `removed ${item} from sprint ${old}.`;
      return `moved ${item} from sprint ${old} to sprint ${now}.`;
    }
    case "is_blocked":
      return `${value.get("to").bool() ? "blocked" : "unblocked"} ${item}.`;
    case "is_closed":
      return `${value.get("to").bool() ? "closed" : "reopened"} ${item}.`;
    case "user_story":
      return `moved ${item} from user story ${from()} to ${to()}.`;
    case "subject":
    case "name":
      return `renamed ${noun} ${from()} to **${to()}**.`;
    case "estimated_start":
    case "estimated_finish": {
      const [old, now] = [from(), to()];
      if (old === now) return null;
      return `changed the ${key.replace("_", " ")} of ${item} from ${old} to ${now}.`;
    }
    case "due_date": {
      const [old, now] = [from(), to()];
      if (!old) return `set the due date of ${item} to ${now}.`;
      if (!now) return `removed the due date of ${item}.`;
      return `changed the due date of ${item} from ${old} to ${now}.`;
    }
    case "priority":
    case "severity":
    case "type":
    case "status":
      return `changed the ${key} of ${item} from ${from()} to ${to()}.`;
    default:
      return null;
  }
}

/** An item by its subject (or a sprint's name): a link when it has a permalink, bold otherwise. */
function taigaItem(data: Payload): string {
  const subject = data.opt("subject").strOr(null) ?? data.get("name").str();
  return taigaLink(subject, data.opt("permalink").strOr(null), true);
}

function taigaLink(text: string, url: string | null, boldWithoutLink: boolean): string {
  if (url !== null) return `[${text}](${url})`;
  return boldWithoutLink ? `**${text}**` : text;
}
