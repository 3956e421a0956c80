import { useId } from "preact/hooks";
import { PRIVACY_LABELS, type StreamPrivacy } from "../../../model/channels.js";

const ORDER: StreamPrivacy[] = ["web-public", "public", "private-shared", "private-protected"];

/**
 * The privacy choice of a stream (https://zulip.com/help/change-the-privacy-of-a-channel):
 * a radio group of Zulip's four kinds, each with its explanation. A kind the
 * reader may not choose is disabled and says why (`refusal`); web-public is
 * offered only where the organization allows spectators
 * (`realm_enable_spectator_access`), unless it is the current value.
 */
export function PrivacyFields(props: {
  value: StreamPrivacy;
  onChange(p: StreamPrivacy): void;
  refusal(p: StreamPrivacy): string | null;
  realm: Readonly<Record<string, unknown>>;
  /** Every choice disabled (the reader may not edit the stream at all). */
  disabled?: boolean;
}) {
  const id = useId();
  const offered = ORDER.filter((p) => p !== "web-public" || props.realm.realm_enable_spectator_access === true || props.value === p);
  return (
    <fieldset class="privacy-fields" disabled={props.disabled}>
      <legend>Who can access the channel?</legend>
      {offered.map((p) => {
        const why = p === props.value ? null : props.refusal(p);
        return (
          <div key={p} class="privacy-choice">
            <input
              type="radio"
              id={`${id}-${p}`}
              name={`${id}-privacy`}
              value={p}
              checked={props.value === p}
              disabled={why !== null}
              aria-describedby={`${id}-${p}-hint`}
              onChange={() => props.onChange(p)}
            />
            <label for={`${id}-${p}`}>{PRIVACY_LABELS[p].label}</label>
            <p id={`${id}-${p}-hint`} class="settings-note">
              {PRIVACY_LABELS[p].hint}
              {why && <span class="refusal-reason"> {why}</span>}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}
