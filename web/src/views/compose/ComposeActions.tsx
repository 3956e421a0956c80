import { EmojiPickerButton } from "../emoji/EmojiPickerButton.js";
import type { ComposeTypeaheadData } from "./ComposeTypeahead.js";
import { ScheduleMenu } from "./ScheduleMenu.js";
import { UploadButton } from "./Uploads.js";

/**
 * The compose box's row of buttons: add emoji, preview, upload files, the
 * "Press Enter to send" setting (or which key sends), schedule, and Send.
 */
export function ComposeActions(props: {
  /** Without it, no "Add emoji" button. */
  typeahead?: ComposeTypeaheadData;
  onEmoji(name: string): void;
  previewOn: boolean;
  onPreview(): void;
  onFiles(files: File[]): void;
  enterSends: boolean;
  /** Changes `enter_sends`; without it the row only says which key sends. */
  onEnterSendsChange?(value: boolean): Promise<void>;
  /** Shows a refusal at the box. */
  onError(message: string): void;
  /** Schedules for a UNIX time in seconds; without it, no "Schedule message". */
  onSchedule?(timestamp: number): void;
  twentyFourHour?: boolean;
  /** Uploads are running: Send waits. */
  sending: boolean;
  sendLabel?: string;
}) {
  return (
    <div class="compose-actions">
      {props.typeahead && (
        <EmojiPickerButton
          label="Add emoji"
          class="compose-emoji"
          realmEmoji={props.typeahead.realmEmoji}
          userId={props.typeahead.userId}
          onPick={(e) => props.onEmoji(e.name)}
        >
          ☺
        </EmojiPickerButton>
      )}
      <button type="button" class="compose-preview-toggle" aria-pressed={props.previewOn} onClick={props.onPreview}>
        Preview
      </button>
      <UploadButton onFiles={props.onFiles} />
      {props.onEnterSendsChange ? (
        <label class="compose-hint">
          <input
            type="checkbox"
            checked={props.enterSends}
            onChange={(e) =>
              void props.onEnterSendsChange!(e.currentTarget.checked).catch((err: unknown) =>
                props.onError(err instanceof Error ? err.message : String(err)),
              )
            }
          />{" "}
          Press Enter to send
        </label>
      ) : (
        <span class="compose-hint">{props.enterSends ? "Enter to send, Shift+Enter for a new line" : "Ctrl+Enter to send"}</span>
      )}
      {props.onSchedule && <ScheduleMenu onPick={props.onSchedule} twentyFourHour={props.twentyFourHour} />}
      <button type="submit" class="compose-send" disabled={props.sending}>
        {props.sendLabel ?? "Send"}
      </button>
    </div>
  );
}
