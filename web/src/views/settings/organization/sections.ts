import { isAdministrator } from "../../../model/roles.js";
import { maySeeInvites } from "../../../model/invites.js";
import type { SettingsSection } from "../types.js";
import { Bots } from "./Bots.js";
import { DataExports } from "./DataExports.js";
import { DeactivatedUsers } from "./DeactivatedUsers.js";
import { DefaultChannels } from "./DefaultChannels.js";
import { DefaultUserSettings } from "./DefaultUserSettings.js";
import { EmojiSettings } from "./EmojiSettings.js";
import { Invitations } from "./Invitations.js";
import { Linkifiers } from "./Linkifiers.js";
import { OrganizationPermissions, OrganizationSettings } from "./OrganizationSettings.js";
import { OrganizationProfile } from "./OrganizationProfile.js";
import { Playgrounds } from "./Playgrounds.js";
import { ProfileFields } from "./ProfileFields.js";
import { UserGroups } from "./UserGroups.js";
import { Users } from "./Users.js";
import "./organization.css";

/**
 * The sections of organization settings (`#organization/<id>`, Zulip's IDs),
 * in the order the overlay lists them. Everyone sees them read-only except
 * data exports, which Zulip shows to administrators only, and invitations,
 * shown to administrators and whoever may invite.
 */
export const ORGANIZATION_SECTIONS: SettingsSection[] = [
  { id: "organization-profile", title: "Organization profile", component: OrganizationProfile },
  { id: "organization-settings", title: "Organization settings", component: OrganizationSettings },
  { id: "organization-permissions", title: "Organization permissions", component: OrganizationPermissions },
  { id: "default-user-settings", title: "Default user settings", component: DefaultUserSettings },
  { id: "emoji-settings", title: "Custom emoji", component: EmojiSettings },
  { id: "linkifier-settings", title: "Linkifiers", component: Linkifiers },
  { id: "playground-settings", title: "Code playgrounds", component: Playgrounds },
  { id: "profile-field-settings", title: "Custom profile fields", component: ProfileFields },
  { id: "default-channels-list", title: "Default channels", component: DefaultChannels },
  { id: "users", title: "Users", component: Users },
  { id: "deactivated", title: "Deactivated users", component: DeactivatedUsers },
  { id: "invites-list-admin", title: "Invitations", component: Invitations, visible: (s) => maySeeInvites(s) },
  { id: "bots", title: "Bots", component: Bots },
  { id: "user-groups", title: "User groups", component: UserGroups },
  { id: "data-exports-admin", title: "Data exports", component: DataExports, visible: isAdministrator },
];
