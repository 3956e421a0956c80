import { useState } from "preact/hooks";
import type { SectionProps } from "../types.js";
import { streamRows } from "../../../model/channels.js";
import { createRefusal } from "../../../model/channel-permissions.js";
import { channelsOf, readerOf, streamMessagesHash, streamSettingsHash, useSubscriberLists } from "./data.js";
import { PrivacyIcon, SubscribeButton } from "./parts.js";
import { overlayHash } from "../../../model/overlay.js";
import { RenderedContent } from "../../message/RenderedContent.js";
import "../../../styles/channels.css";

/** How many rows a list shows before the filter narrows it (the rest: "Filter to see more"). */
const MAX_ROWS = 200;

/**
 * A list of streams (https://zulip.com/help/browse-and-subscribe-to-channels):
 * `which` "subscribed" for the reader's subscriptions, "all" for every stream
 * they can see. A filter box narrows by name and description; each row has
 * the privacy icon, the name (a link to the stream's settings), description,
 * subscriber count, a link to its messages, and "Subscribe"/"Unsubscribe".
 * Everything follows the live events (subscriptions, peers, renames).
 */
export function StreamList(props: SectionProps & { which: "subscribed" | "all" }) {
  const { chat, state, which } = props;
  const [query, setQuery] = useState("");
  const channels = channelsOf(state);
  const rows = streamRows(channels, which, query);
  const shown = rows.slice(0, MAX_ROWS);
  useSubscriberLists(chat, state, shown.map((r) => r.stream.stream_id));
  const title = which === "subscribed" ? "Subscribed channels" : "All channels";
  const reader = readerOf(state);
  // Without the groups loaded only guests are known not to create; the form says more.
  const mayCreate = createRefusal("public", reader, state.realmSettings, []) !== "Guests cannot create channels.";

  return (
    <div class="stream-browser">
      <div class="stream-browser-head">
        <h2 tabIndex={-1}>{title}</h2>
        {mayCreate && (
          <a class="button-link" href={overlayHash("channels", "new")}>
            Create a channel
          </a>
        )}
      </div>
      <input
        type="search"
        class="stream-filter"
        aria-label="Filter channels"
        placeholder="Filter channels"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      <ul class="stream-rows" aria-label={title}>
        {shown.map(({ stream, sub, subscriberCount }) => (
          <li key={stream.stream_id} class="stream-row">
            <span class="stream-row-swatch" style={sub ? { backgroundColor: sub.color } : undefined} aria-hidden="true" />
            <div class="stream-row-main">
              <div class="stream-row-title">
                <PrivacyIcon stream={stream} />
                <a href={streamSettingsHash(stream.stream_id, stream.name)} class="stream-row-name">
                  {stream.name}
                </a>
                {subscriberCount !== undefined && (
                  <span class="stream-row-count">
                    {subscriberCount} {subscriberCount === 1 ? "subscriber" : "subscribers"}
                  </span>
                )}
              </div>
              {stream.rendered_description ? (
                <RenderedContent html={stream.rendered_description} class="stream-row-description" />
              ) : (
                <p class="stream-row-description stream-empty">No description.</p>
              )}
            </div>
            <div class="stream-row-actions">
              <a href={streamMessagesHash(stream.stream_id, stream.name)} aria-label={`View messages in ${stream.name}`}>
                View
              </a>
              <SubscribeButton chat={chat} name={stream.name} subscribed={sub !== undefined} />
            </div>
          </li>
        ))}
      </ul>
      {rows.length === 0 && (
        <p class="stream-empty">
          {query ? "No channels match your filter." : which === "subscribed" ? "You are not subscribed to any channels." : "There are no channels you can see."}
        </p>
      )}
      {rows.length > shown.length && <p class="stream-empty">Showing {shown.length} of {rows.length} channels; filter to find the rest.</p>}
    </div>
  );
}

/** `#channels/subscribed`. */
export function SubscribedStreams(props: SectionProps) {
  return <StreamList {...props} which="subscribed" />;
}

/** `#channels/all`. */
export function AllStreams(props: SectionProps) {
  return <StreamList {...props} which="all" />;
}
