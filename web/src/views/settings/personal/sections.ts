import type { SettingsSection } from "../types.js";
import "../../../styles/personal-settings.css";
import { AccountAndPrivacySection } from "./account-and-privacy.js";
import { AlertWordsSection } from "./alert-words.js";
import { MutedUsersSection } from "./muted-users.js";
import { NotificationsSection } from "./notifications.js";
import { PreferencesSection } from "./preferences.js";
import { ProfileSection } from "./profile.js";
import { UploadedFiles } from "./UploadedFiles.js";
import { YourBotsSection } from "./your-bots.js";

/** The sections of personal settings (`#settings/<id>`), in the order the overlay lists them (Zulip's). */
export const PERSONAL_SECTIONS: SettingsSection[] = [
  { id: "profile", title: "Profile", component: ProfileSection },
  { id: "account-and-privacy", title: "Account & privacy", component: AccountAndPrivacySection },
  { id: "preferences", title: "Preferences", component: PreferencesSection },
  { id: "notifications", title: "Notifications", component: NotificationsSection },
  { id: "your-bots", title: "Your bots", component: YourBotsSection },
  { id: "alert-words", title: "Alert words", component: AlertWordsSection },
  { id: "uploaded-files", title: "Uploaded files", component: UploadedFiles },
  { id: "muted-users", title: "Muted users", component: MutedUsersSection },
];
