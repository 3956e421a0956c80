import type { SettingsSection } from "../types.js";
import { AllStreams, SubscribedStreams } from "./StreamList.js";
import { NewStream } from "./NewStream.js";
import { StreamSettingsSection } from "./StreamSettingsSection.js";

/**
 * The sections of channel settings (`#channels/<id>`): the lists (`subscribed`,
 * `all`), `new`, and one stream's settings (`#channels/<stream id>/<name>/<tab>`,
 * matched by {@link CHANNEL_SECTION} when no list section has the ID).
 */
export const CHANNEL_SECTIONS: SettingsSection[] = [
  { id: "subscribed", title: "Subscribed channels", component: SubscribedStreams },
  { id: "all", title: "All channels", component: AllStreams },
  { id: "new", title: "Create a channel", component: NewStream, visible: (s) => (s.users.get(s.me.user_id)?.role ?? 400) < 600 },
];

/** The view of one stream's settings, for `#channels/<stream id>/…`. */
export const CHANNEL_SECTION: SettingsSection | null = { id: "stream", title: "Channel", component: StreamSettingsSection };
