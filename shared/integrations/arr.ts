import { jsonPayload, type Payload, WebhookPayloadError } from "./payload.js";
import type { Integration, WebhookRequest, WebhookResult } from "./types.js";

/** What distinguishes one *arr media manager (Sonarr, Radarr) from its siblings. */
export interface ArrFlavour {
  name: string;
  displayName: string;
  /** The payload member whose `title` names the topic of media events (`series`, `movie`). */
  subject: string;
  /** Events posted under a fixed topic rather than the media title (e.g. Radarr's `ApplicationUpdate`). */
  fixedTopics?: Readonly<Record<string, string>>;
  /**
   * The message for a media event, or null when the flavour does not
   * report it (→ unsupported). `Test` and `Health` are handled in common.
   */
  describe(eventType: string, payload: Payload): string | null;
}

/**
 * An integration for a Sonarr-style media manager (Zulip's
 * `api_sonarr_webhook` / `api_radarr_webhook`): the payload's `eventType`
 * is the event type; `Test` posts a set-up confirmation under
 * `<Name> - Test`, `Health` posts the check's message under
 * `Health <level>`, and every other event goes under the series or movie
 * title. Throws WebhookPayloadError when a needed field is missing.
 */
export function arrIntegration(flavour: ArrFlavour): Integration {
  return {
    name: flavour.name,
    displayName: flavour.displayName,
    handle(request: WebhookRequest): WebhookResult {
      const payload = jsonPayload(request);
      const eventType = payload.get("eventType").str();
      if (eventType === "Test") {
        const content = `${flavour.displayName} webhook has been successfully configured.`;
        return { kind: "messages", eventType, messages: [{ topic: `${flavour.displayName} - Test`, content }] };
      }
      if (eventType === "Health") {
        const topic = `Health ${payload.get("level").str()}`;
        return { kind: "messages", eventType, messages: [{ topic, content: `${payload.get("message").str()}.` }] };
      }
      const content = flavour.describe(eventType, payload);
      if (content === null) return { kind: "unsupported", eventType };
      const topic = flavour.fixedTopics?.[eventType] ?? payload.get(flavour.subject).get("title").str();
      return { kind: "messages", eventType, messages: [{ topic, content }] };
    },
  };
}

/** The first element of a list the event needs (e.g. the episode or the replaced file). */
export function arrFirst(list: Payload): Payload {
  const first = list.list()[0];
  if (first === undefined) throw new WebhookPayloadError(`${list.path}[0] is missing`);
  return first;
}
