import { useId, useState } from "preact/hooks";
import type { WireRealmBot } from "../../../model/personal.js";
import type { ChatState } from "../../../model/store.js";
import { webhookUrl } from "../../../model/webhook-url.js";
import { CopyButton } from "./controls.js";

/**
 * The URL to paste into a third-party system for an incoming-webhook bot
 * (https://zulip.com/help/incoming-webhooks-overview): pick one of the
 * integrations the server takes (register's `realm_incoming_webhook_bots`),
 * a channel (or none: the bot then messages its owner) and optionally a
 * topic; the URL carries the bot's API key.
 */
export function WebhookUrlBuilder(props: { bot: WireRealmBot; state: ChatState }) {
  const id = useId();
  const integrations = [...props.state.personal.webhookIntegrations].sort((a, b) => a.display_name.localeCompare(b.display_name));
  const streams = [...props.state.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  const [integration, setIntegration] = useState(integrations[0]?.name ?? "json");
  const [stream, setStream] = useState(props.bot.default_sending_stream ?? "");
  const [topic, setTopic] = useState("");
  const url = webhookUrl({ site: location.origin, integration, apiKey: props.bot.api_key, stream, topic: topic.trim() });
  return (
    <fieldset class="settings-group webhook-url">
      <legend>Integration URL for {props.bot.full_name}</legend>
      <div class="settings-row">
        <label for={`${id}-integration`}>Integration</label>
        <select id={`${id}-integration`} value={integration} onChange={(e) => setIntegration((e.currentTarget as HTMLSelectElement).value)}>
          {integrations.map((i) => (
            <option key={i.name} value={i.name}>
              {i.display_name}
            </option>
          ))}
        </select>
      </div>
      <div class="settings-row">
        <label for={`${id}-stream`}>Channel</label>
        <select id={`${id}-stream`} value={stream} onChange={(e) => setStream((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">(a direct message to the bot's owner)</option>
          {streams.map((s) => (
            <option key={s.stream_id} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div class="settings-row">
        <label for={`${id}-topic`}>Topic (optional)</label>
        <input id={`${id}-topic`} value={topic} onInput={(e) => setTopic((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <div class="settings-row">
        <label for={`${id}-url`}>Webhook URL</label>
        <input id={`${id}-url`} class="webhook-url-output" readOnly value={url} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <div>
          <CopyButton text={url} label="Copy URL" />
        </div>
      </div>
    </fieldset>
  );
}
