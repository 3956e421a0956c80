import { jsonPayload, type Payload } from "./payload.js";
import { quoteBlock } from "./format.js";
import type { Integration, WebhookMessage, WebhookResult } from "./types.js";

/** What one PagerDuty notification says, whatever the webhook version. */
interface Incident {
  /** The event type (`only_events` matches it): `triggered`, `acknowledged`, ... */
  action: string;
  /** The sender's own event name, which picks the wording. */
  kind: string;
  /** `3` (v1/v2) or `Disk full (#3)` (v3): the topic is `Incident <numTitle>`. */
  numTitle: string;
  url: string;
  service: string | null;
  assignee: string;
  agent: string | null;
  /** A quote of what triggered the incident (v1/v2), or "". */
  trigger: string;
  /** The event's own detail (v3: new priority, note, responder message, ...), or "". */
  details: string;
}

/** v1 `type` / v2 `event` → event type. */
const LEGACY_ACTIONS: Record<string, string> = {
  "incident.trigger": "triggered",
  "incident.acknowledge": "acknowledged",
  "incident.unacknowledge": "unacknowledged",
  "incident.resolve": "resolved",
  "incident.assign": "assigned",
  "incident.escalate": "escalated",
  "incident.delegate": "delegated",
};

/** The events the v2 webhooks send that we report (the others are v1 only). */
const V2_EVENTS = ["incident.trigger", "incident.acknowledge", "incident.resolve", "incident.assign"];

/** v3 `event_type` → event type. */
const V3_ACTIONS: Record<string, string> = {
  "incident.triggered": "triggered",
  "incident.acknowledged": "acknowledged",
  "incident.unacknowledged": "unacknowledged",
  "incident.resolved": "resolved",
  "incident.reassigned": "reassigned",
  "incident.escalated": "escalated",
  "incident.delegated": "delegated",
  "incident.reopened": "reopened",
  "incident.priority_updated": "priority updated",
  "incident.status_update_published": "status updated",
  "incident.annotated": "annotated",
  "incident.responder.added": "responder added",
  "incident.responder.replied": "responder replied",
  "incident.conference_bridge.updated": "conference bridge updated",
  "incident.service_updated": "service updated",
  "incident.workflow.started": "workflow started",
  "incident.workflow.completed": "workflow completed",
};

/** `[name](url)` for a PagerDuty user or service reference (`summary`, `html_url`). */
function reference(ref: Payload): string {
  return `[${ref.get("summary").str()}](${ref.get("html_url").str()})`;
}

/** A v1 user: PagerDuty's own pages name people by the local part of their email. */
function v1User(user: Payload): string {
  return `[${user.get("email").str().split("@")[0]}](${user.get("html_url").str()})`;
}

function fromV1(message: Payload, type: string): Incident {
  const incident = message.get("data").get("incident");
  const service = incident.get("service");
  const assigned = incident.opt("assigned_to_user");
  const resolver = incident.opt("resolved_by_user");
  const summary = incident.opt("trigger_summary_data");
  const lines = summary.exists()
    ? [summary.opt("subject").strOr(""), summary.opt("description").strOr("")].filter((l) => l !== "")
    : [];
  return {
    action: LEGACY_ACTIONS[type]!,
    kind: type,
    numTitle: String(incident.get("incident_number").num()),
    url: incident.get("html_url").str(),
    service: `[${service.get("name").str()}](${service.get("html_url").str()})`,
    assignee: assigned.exists() ? v1User(assigned) : "nobody",
    agent: resolver.exists() ? v1User(resolver) : null,
    trigger: lines.length > 0 ? quoteBlock(lines.join("\n")) : "",
    details: "",
  };
}

function fromV2(message: Payload, event: string): Incident {
  const incident = message.get("incident");
  const service = incident.get("service");
  const assignments = incident.get("assignments").list();
  const changedBy = incident.opt("last_status_change_by");
  const description = incident.opt("description").strOr(null);
  return {
    action: LEGACY_ACTIONS[event]!,
    kind: event,
    numTitle: String(incident.get("incident_number").num()),
    url: incident.get("html_url").str(),
    service: `[${service.get("name").str()}](${service.get("html_url").str()})`,
    assignee: assignments.length > 0 ? reference(assignments[0]!.get("assignee")) : "nobody",
    agent: changedBy.exists() ? reference(changedBy) : null,
    trigger: description === null ? "" : quoteBlock(description),
    details: "",
  };
}

/** The detail a v3 event carries beyond the incident itself. */
function v3Details(eventType: string, data: Payload): string {
  switch (eventType) {
    case "incident.priority_updated":
      return data.opt("priority").exists() ? data.get("priority").get("summary").str() : "";
    case "incident.status_update_published":
    case "incident.responder.added":
    case "incident.responder.replied":
      return data.get("message").str();
    case "incident.annotated":
      return data.get("content").str();
    case "incident.conference_bridge.updated":
      return data.opt("conference_url").strOr("");
    case "incident.service_updated":
      return data.opt("service").exists() ? data.get("service").get("summary").str() : "";
    case "incident.workflow.started":
    case "incident.workflow.completed": {
      const workflow = data.get("incident_workflow").get("summary").str();
      const summary = data.opt("summary").strOr("");
      return summary === "" ? workflow : `${workflow} (${summary})`;
    }
    default:
      return "";
  }
}

function fromV3(event: Payload, eventType: string): Incident {
  const data = event.get("data");
  // Incident events carry the incident as `data`; responder, note and workflow events nest it in `data.incident`.
  const nested = data.opt("incident");
  const numTitle = nested.exists()
    ? nested.get("summary").str()
    : `${data.get("title").str()} (#${data.get("number").num()})`;
  const service = data.opt("service");
  const assignees = data.opt("assignees");
  const user = data.opt("user");
  let assignee = "nobody";
  if (assignees.exists() && assignees.list().length > 0) assignee = reference(assignees.list()[0]!);
  else if (user.exists()) assignee = reference(user);
  const policy = data.opt("escalation_policy");
  const agent = event.opt("agent");
  return {
    action: V3_ACTIONS[eventType]!,
    kind: eventType,
    numTitle,
    url: (nested.exists() ? nested : data).get("html_url").str(),
    service: service.exists() ? reference(service) : null,
    assignee,
    agent: agent.exists() ? reference(agent) : null,
    trigger: "",
    details: eventType === "incident.delegated" && policy.exists() ? reference(policy) : v3Details(eventType, data),
  };
}

/** The message about one incident event. */
function render(i: Incident): WebhookMessage {
  const link = `Incident [${i.numTitle}](${i.url})`;
  const withTrigger = (text: string) => (i.trigger === "" ? text : `${text}\n\n${i.trigger}`);
  let content: string;
  switch (i.kind) {
    case "incident.trigger":
    case "incident.triggered":
    case "incident.unacknowledge":
    case "incident.unacknowledged":
      content = withTrigger(`${link} was ${i.action} by ${i.service ?? "(no service)"}; assigned to ${i.assignee}.`);
      break;
    case "incident.assign":
    case "incident.reassigned":
      content = withTrigger(`${link} was ${i.action} to ${i.assignee}.`);
      break;
    case "incident.resolve":
    case "incident.resolved":
      content = withTrigger(i.agent !== null ? `${link} was resolved by ${i.agent}.` : `${link} was resolved.`);
      break;
    case "incident.escalated":
      content = `${link} was escalated to ${i.assignee}.`;
      break;
    case "incident.delegated":
      content = `${link} was delegated${i.details !== "" ? ` to escalation policy ${i.details}` : ""}; now assigned to ${i.assignee}.`;
      break;
    case "incident.reopened":
      content = `${link} was reopened.`;
      break;
    case "incident.priority_updated":
      content = `${link}: priority set to ${i.details}.`;
      break;
    case "incident.status_update_published":
      content = `${link}: status update published:\n\n${quoteBlock(i.details)}`;
      break;
    case "incident.annotated":
      content = `${link}: note added:\n\n${quoteBlock(i.details)}`;
      break;
    case "incident.responder.added":
      content = `${link}: responder ${i.assignee} added.\n\n${quoteBlock(i.details)}`;
      break;
    case "incident.responder.replied":
      content = `${link}: responder ${i.assignee} replied.\n\n${quoteBlock(i.details)}`;
      break;
    case "incident.conference_bridge.updated":
      content = `${link}: conference bridge set to ${i.details}.`;
      break;
    case "incident.service_updated":
      content = `${link}: moved to service ${i.details}.`;
      break;
    case "incident.workflow.started":
    case "incident.workflow.completed":
      content = `${link}: workflow ${i.action === "workflow started" ? "started" : "completed"}: ${i.details}.`;
      break;
    default:
      // Acknowledged, escalated (v1) and delegated (v1): who holds the incident.
      content = withTrigger(`${link} was ${i.action} by ${i.assignee}.`);
  }
  return { topic: `Incident ${i.numTitle}`, content };
}

/**
 * PagerDuty (https://zulip.com/integrations/doc/pagerduty; Zulip's
 * `api_pagerduty_webhook`), all three webhook versions: v1 and v2 batch
 * several notifications in `messages` (by `type` / `event`), v3 sends one
 * `event` (by `event_type`). Topic `Incident <number>` (v1/v2) or
 * `Incident <title> (#<number>)` (v3). Event types: `triggered`,
 * `acknowledged`, `unacknowledged`, `resolved`, `assigned`, `reassigned`,
 * `escalated`, `delegated`, `reopened`, `priority updated`, `status updated`,
 * `annotated`, `responder added`, `responder replied`, `conference bridge
 * updated`, `service updated`, `workflow started`, `workflow completed`; a
 * batch reports the first notification's. Unknown event names are
 * unsupported; an empty batch is ignored.
 */
export const pagerdutyIntegration: Integration = {
  name: "pagerduty",
  displayName: "PagerDuty",
  handle(request): WebhookResult {
    const payload = jsonPayload(request);
    const messages = payload.opt("messages");
    const incidents: Incident[] = [];
    if (messages.exists() && messages.list().length > 0) {
      for (const message of messages.list()) {
        const type = message.opt("type").strOr(null);
        const event = message.opt("event").strOr(null);
        if (type !== null) {
          if (!Object.hasOwn(LEGACY_ACTIONS, type)) return { kind: "unsupported", eventType: type };
          incidents.push(fromV1(message, type));
        } else if (event !== null) {
          if (!V2_EVENTS.includes(event)) return { kind: "unsupported", eventType: event };
          incidents.push(fromV2(message, event));
        }
      }
    } else if (payload.opt("event").exists()) {
      const event = payload.get("event");
      const eventType = event.get("event_type").str();
      if (!Object.hasOwn(V3_ACTIONS, eventType)) return { kind: "unsupported", eventType };
      incidents.push(fromV3(event, eventType));
    }
    if (incidents.length === 0) return { kind: "ignored", eventType: null };
    return { kind: "messages", eventType: incidents[0]!.action, messages: incidents.map(render) };
  },
};
