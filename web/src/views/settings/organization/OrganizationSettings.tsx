import { savedValues, type SettingField } from "./form-logic.js";
import { SettingsForm } from "./SettingsForm.js";
import {
  CHANNEL_PERMISSIONS,
  COMPOSE_SETTINGS,
  JOINING,
  MESSAGE_DELETING,
  MESSAGE_EDITING,
  MESSAGE_MOVING,
  NOTIFICATION_SETTINGS,
  OTHER_PERMISSIONS,
  OTHER_SETTINGS,
} from "./realm-fields.js";
import type { SectionProps } from "../types.js";

/** A page of organization settings: one form per group, each saved with `PATCH /realm` (https://zulip.com/api/update-realm). */
function RealmSettingsPage(props: SectionProps & { title: string; groups: [string, SettingField[]][] }) {
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>{props.title}</h2>
      {props.groups.map(([title, fields]) => (
        <SettingsForm
          key={title}
          title={title}
          fields={fields}
          saved={savedValues(fields, props.state.realmSettings, "realm_")}
          state={props.state}
          save={(params) => props.chat.api.call("PATCH", "/realm", params)}
        />
      ))}
    </div>
  );
}

/** `#organization/organization-settings` (https://zulip.com/help/organization-settings): compose, notification and other settings. */
export function OrganizationSettings(props: SectionProps) {
  return (
    <RealmSettingsPage
      {...props}
      title="Organization settings"
      groups={[
        ["Compose settings", COMPOSE_SETTINGS],
        ["Notifications", NOTIFICATION_SETTINGS],
        ["Other settings", OTHER_SETTINGS],
      ]}
    />
  );
}

/**
 * `#organization/organization-permissions` (https://zulip.com/help/manage-permissions):
 * joining, message editing, moving and deleting, channel and other permissions.
 */
export function OrganizationPermissions(props: SectionProps) {
  return (
    <RealmSettingsPage
      {...props}
      title="Organization permissions"
      groups={[
        ["Joining the organization", JOINING],
        ["Message editing", MESSAGE_EDITING],
        ["Moving messages", MESSAGE_MOVING],
        ["Message deletion", MESSAGE_DELETING],
        ["Channel permissions", CHANNEL_PERMISSIONS],
        ["Other permissions", OTHER_PERMISSIONS],
      ]}
    />
  );
}
