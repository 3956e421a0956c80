import { useId, useRef } from "preact/hooks";
import { canChange, savedValues, type SettingField } from "./form-logic.js";
import { ReadOnlyNote, SettingsForm } from "./SettingsForm.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { postFile } from "../../../api/form.js";
import type { SectionProps } from "../types.js";

const FIELDS: SettingField[] = [
  { name: "name", label: "Organization name", kind: "text", maxLength: 40 },
  { name: "description", label: "Organization description", kind: "text", maxLength: 1000, multiline: true },
];

/**
 * One organization image (the icon, the day or night logo): its picture,
 * "Upload …" (a file picker; `POST /realm/icon` or `/realm/logo`) and
 * "Delete …" (`DELETE` of the same path), back to the default.
 */
function ImageSetting(props: SectionProps & { label: string; path: string; query: string; url: unknown; source: unknown }) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const allowed = canChange(props.state);
  const upload = useAction(async (file: File) => postFile(`${props.path}${props.query}`, file));
  const remove = useAction(async () => props.chat.api.call("DELETE", `${props.path}${props.query}`));
  const custom = props.source === "U";
  return (
    <div class="org-image-setting">
      <h4>{props.label}</h4>
      {typeof props.url === "string" && props.url !== "" && <img src={props.url} alt={`${props.label} of the organization`} class="org-image" />}
      <input
        ref={input}
        id={inputId}
        type="file"
        accept="image/*"
        class="visually-hidden"
        tabIndex={-1}
        aria-label={`${props.label} file`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void upload.run(file);
          e.currentTarget.value = "";
        }}
      />
      <div class="org-actions">
        <button type="button" disabled={!allowed || upload.pending} onClick={() => input.current?.click()}>
          {upload.pending ? "Uploading…" : `Upload ${props.label.toLowerCase()}`}
        </button>
        {custom && (
          <button type="button" class="button-danger" disabled={!allowed || remove.pending} onClick={() => void remove.run()}>
            Delete {props.label.toLowerCase()}
          </button>
        )}
      </div>
      <ErrorNote error={upload.error ?? remove.error} />
    </div>
  );
}

/**
 * `#organization/organization-profile` (https://zulip.com/help/create-your-organization-profile):
 * the organization's name and description (`PATCH /realm`), its icon and its
 * day and night logos (upload and delete).
 */
export function OrganizationProfile(props: SectionProps) {
  const r = props.state.realmSettings;
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Organization profile</h2>
      <SettingsForm
        title="Name and description"
        fields={FIELDS}
        saved={savedValues(FIELDS, r, "realm_")}
        state={props.state}
        save={(params) => props.chat.api.call("PATCH", "/realm", params)}
      />
      <h3>Images</h3>
      {!canChange(props.state) && <ReadOnlyNote />}
      <ImageSetting {...props} label="Icon" path="/realm/icon" query="" url={r.realm_icon_url} source={r.realm_icon_source} />
      <ImageSetting {...props} label="Logo" path="/realm/logo" query="?night=false" url={r.realm_logo_url} source={r.realm_logo_source} />
      <ImageSetting {...props} label="Night logo" path="/realm/logo" query="?night=true" url={r.realm_night_logo_url} source={r.realm_night_logo_source} />
    </div>
  );
}
