import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { addAlertWords } from "./add-alert-words.js";
import { createDrafts } from "./create-drafts.js";
import { createUser } from "./create-user.js";
import { deleteDraft } from "./delete-draft.js";
import { editDraft } from "./edit-draft.js";
import { getDrafts } from "./get-drafts.js";
import { deactivateOwnUser } from "./deactivate-own-user.js";
import { deactivateUser } from "./deactivate-user.js";
import { getAlertWords } from "./get-alert-words.js";
import { getOwnUser } from "./get-own-user.js";
import { getUser } from "./get-user.js";
import { getUsers } from "./get-users.js";
import { getUserStatus } from "./get-user-status.js";
import { markOnboardingStepAsRead } from "./mark-onboarding-step-as-read.js";
import { muteUser, unmuteUser } from "./mute-user.js";
import { removeUserCustomProfileData, updateUserCustomProfileData } from "./profile-data.js";
import { reactivateUser } from "./reactivate-user.js";
import { removeAlertWords } from "./remove-alert-words.js";
import { updateSettings } from "./update-settings.js";
import { updateStatus } from "./update-status.js";
import { updateUser } from "./update-user.js";
import { deactivateBot } from "./deactivate-bot.js";
import { getBots } from "./get-bots.js";
import { regenerateBotApiKey } from "./regenerate-bot-api-key.js";

/** Endpoints of the `users` group. */
export const endpoints = {
  getUsers,
  createUser,
  getOwnUser,
  deactivateOwnUser,
  getUser,
  updateUser,
  deactivateUser,
  reactivateUser,
  updateSettings,
  updateStatus,
  getUserStatus,
  markOnboardingStepAsRead,
  getAlertWords,
  addAlertWords,
  removeAlertWords,
  getDrafts,
  createDrafts,
  editDraft,
  deleteDraft,
  muteUser,
  unmuteUser,
  updateUserCustomProfileData,
  removeUserCustomProfileData,
  getBots,
  deactivateBot,
  regenerateBotApiKey,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints, createDeps());
