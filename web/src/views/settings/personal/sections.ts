import type { SettingsSection } from "../types.js";
import { UploadedFiles } from "./UploadedFiles.js";

/** The sections of personal settings (`#settings/<id>`), in the order the overlay lists them. */
export const PERSONAL_SECTIONS: SettingsSection[] = [
  { id: "uploaded-files", title: "Uploaded files", component: UploadedFiles },
];
