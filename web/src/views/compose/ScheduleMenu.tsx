import { useId, useRef, useState } from "preact/hooks";
import { localInputToTimestamp, schedulePresets, timestampToLocalInput } from "../../model/scheduled.js";
import { hourText } from "../drafts/recipient.js";
import { MenuList, useDismiss } from "../ui/Popover.js";


/**
 * The "Schedule message" button beside Send and its menu
 * (https://zulip.com/help/schedule-a-message): Zulip's presets ("Tomorrow at
 * 9:00 AM", "Monday at 9:00 AM", …) and a custom date and time
 * (`<input type="datetime-local">`, "Schedule"). `onPick` gets the chosen
 * time in UNIX seconds; the compose box shows a refusal.
 */
export function ScheduleMenu(props: { onPick(timestamp: number): void; twentyFourHour?: boolean; now?: () => Date }) {
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState("");
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useDismiss(open, ref, () => setOpen(false), buttonRef);
  const now = props.now?.() ?? new Date();
  const presets = open ? schedulePresets(now, (d) => hourText(d, props.twentyFourHour ?? false)) : [];
  const pickCustom = () => {
    const ts = localInputToTimestamp(custom);
    if (ts === undefined) return;
    setOpen(false);
    props.onPick(ts);
  };
  return (
    <div class="schedule-menu" ref={ref}>
      <button
        type="button"
        ref={buttonRef}
        class="compose-schedule"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => {
          if (!open) setCustom(timestampToLocalInput(Math.floor(now.getTime() / 1000) + 3600));
          setOpen(!open);
        }}
      >
        Schedule message
      </button>
      {open && (
        <div class="popover schedule-popover">
          <MenuList
            label="Schedule message"
            items={presets.map((p) => ({ label: p.label, onSelect: () => props.onPick(p.timestamp) }))}
            onDone={() => setOpen(false)}
          />
          <div class="schedule-custom">
            <label for={`${id}-custom`}>Custom time</label>
            <input
              id={`${id}-custom`}
              type="datetime-local"
              value={custom}
              onInput={(e) => setCustom(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  pickCustom();
                }
              }}
            />
            <button type="button" disabled={localInputToTimestamp(custom) === undefined} onClick={pickCustom}>
              Schedule
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
