import { overlayHash } from "../model/overlay.js";
import "../styles/stream-settings-link.css";

/**
 * The sidebar's way into a stream's settings (Zulip's "Channel settings" in
 * the stream's menu, https://zulip.com/help/channel-settings): a small gear
 * link beside the stream, named "Channel settings for <name>", shown on hover
 * and when focused, opening `#channels/<id>/<name>/general`.
 */
export function StreamSettingsLink(props: { streamId: number; name: string }) {
  return (
    <a class="stream-settings-link" href={overlayHash("channels", String(props.streamId), props.name, "general")} aria-label={`Channel settings for ${props.name}`} title="Channel settings">
      <span aria-hidden="true">⚙</span>
    </a>
  );
}
