import type { SectionProps } from "../types.js";
import { channelsOf, streamMessagesHash, streamSettingsHash } from "./data.js";
import { PrivacyIcon, SubscribeButton } from "./parts.js";
import { GeneralTab } from "./GeneralTab.js";
import { PersonalTab } from "./PersonalTab.js";
import { SubscribersTab } from "./SubscribersTab.js";
import "../../../styles/channels.css";

const TABS = [
  { id: "general", title: "General" },
  { id: "personal", title: "Personal" },
  { id: "subscribers", title: "Subscribers" },
] as const;

/** A tab of one stream's settings. */
export type StreamTab = (typeof TABS)[number]["id"];

/**
 * One stream's settings, `#channels/<stream id>/<name>/<tab>`
 * (https://zulip.com/help/channel-settings): the stream's name with its
 * privacy, "Subscribe"/"Unsubscribe", and three tabs as links — General
 * (name, description, permissions, archiving), Personal (the reader's color,
 * muting, pinning and notifications; subscribers only) and Subscribers.
 * The name in the hash is only for people reading it: the ID decides, and a
 * renamed stream keeps its page.
 */
export function StreamSettings(props: SectionProps & { streamId: number }) {
  const { chat, state, rest, streamId } = props;
  const channels = channelsOf(state);
  const stream = channels.streams.get(streamId);
  const sub = channels.subs.get(streamId);
  const tab: StreamTab = TABS.find((t) => t.id === rest[1])?.id ?? "general";
  if (!stream) {
    return (
      <div>
        <h2 tabIndex={-1}>Channel not found</h2>
        <p>This channel does not exist, was archived, or you cannot see it.</p>
        <a href="#channels/all">All channels</a>
      </div>
    );
  }
  const current = sub ?? stream;
  return (
    <div class="stream-settings">
      <div class="stream-settings-head">
        <h2 tabIndex={-1}>
          <PrivacyIcon stream={current} /> {current.name}
        </h2>
        <a href={streamMessagesHash(streamId, current.name)}>View messages</a>
        <SubscribeButton chat={chat} name={current.name} subscribed={sub !== undefined} />
      </div>
      <nav class="stream-tabs" aria-label="Channel settings tabs">
        {TABS.map((t) => (
          <a key={t.id} href={streamSettingsHash(streamId, current.name, t.id)} aria-current={t.id === tab ? "page" : undefined}>
            {t.title}
          </a>
        ))}
      </nav>
      {tab === "general" && <GeneralTab chat={chat} state={state} stream={current} sub={sub} />}
      {tab === "personal" &&
        (sub ? <PersonalTab chat={chat} state={state} sub={sub} /> : <p class="settings-note">Subscribe to this channel to change your personal settings for it.</p>)}
      {tab === "subscribers" && <SubscribersTab chat={chat} state={state} stream={current} sub={sub} />}
    </div>
  );
}
