import type { ComponentChildren } from "preact";
import type { ApiClient } from "../../api/client.js";
import type { UploadFn } from "../../api/upload.js";
import type { DraftSync } from "../../model/drafts.js";
import type { ComposeTypeaheadData } from "./ComposeTypeahead.js";
import type { TypingClock } from "./typing.js";
import type { ComposePerson, ComposeStream, ComposeTarget } from "./types.js";

/** Props of the compose box (`Compose.tsx`). */
export interface ComposeProps {
  api: ApiClient;
  people: ComposePerson[];
  streams: ComposeStream[];
  /** Where a new message goes by default (the narrow's stream/topic or conversation); null: the person picks. */
  target: ComposeTarget | null;
  /** Sends (the caller shows it at once with a local_id and posts it); rejects with an ApiError to show. */
  onSend(target: ComposeTarget, content: string): Promise<void>;
  /** Enter sends (otherwise Ctrl+Enter sends and Enter starts a new line). */
  enterSends: boolean;
  /**
   * Changes the person's `enter_sends` setting (Zulip's "Press Enter to send" in the compose box); the
   * server's `user_settings` event then updates `enterSends`; a refusal shows at the box. Without it, the box
   * only says which key sends.
   */
  onEnterSendsChange?(value: boolean): Promise<void>;
  /** Whether the box is open (default true). Closed, it keeps its draft and shows only the buttons that open it. */
  open?: boolean;
  /** Closes the box (its close button, Esc inside it); without it the box has no close button. */
  onClose?(): void;
  /** Opens the box for a new stream or direct message (the buttons of the closed box). */
  onOpen?(kind: "stream" | "private"): void;
  /** With `target` null: which kind of message the box starts with (default "stream"). */
  kind?: "stream" | "private";
  /** Focus the box's first empty field when it mounts open (it always does when `open` turns true). */
  autoFocus?: boolean;
  /** The reader's user ID, for the preview's mention highlighting. */
  selfUserId?: number;
  /** Each new value focuses the first empty field of the open box (the `c`, `x`, `r` shortcuts). */
  focusRequest?: number;
  /** The typing notifications' clock (tests pass a fake). */
  typingClock?: TypingClock;
  /** `max_file_upload_size_mib`: larger files are refused before uploading; undefined: the server alone checks. */
  maxUploadSizeMib?: number;
  /** Uploads one file (tests pass a fake); default `POST /json/user_uploads`. */
  upload?: UploadFn;
  /** Schedules the message for `timestamp` (UNIX seconds) instead of sending it; shows "Schedule message" beside Send. */
  onSchedule?(target: ComposeTarget, content: string, timestamp: number): Promise<void>;
  /** Keeps the text as the conversation's draft while it is typed; closing the box saves and empties it. */
  drafts?: DraftSync;
  /** Each new `seq` puts `target` and `content` into the box (a restored draft, a scheduled message to edit). */
  load?: { seq: number; target: ComposeTarget; content: string };
  /** The send button's name (default "Send"). */
  sendLabel?: string;
  /** Shown above the buttons (what the box is editing). */
  banner?: ComponentChildren;
  /** The reader's clock shows 24 hours (for the schedule presets). */
  twentyFourHour?: boolean;
  /** Groups, topics, emoji and recent senders for the typeahead and the "Add emoji" button; without it, neither. */
  typeahead?: ComposeTypeaheadData;
}

