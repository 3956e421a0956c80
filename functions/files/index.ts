import { loadConfig } from "../../shared/config.js";
import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { createS3FileStore } from "../../shared/storage/file-store.js";
import { deactivateCustomEmoji, getCustomEmoji, uploadCustomEmoji } from "./realm-emoji.js";
import { getUserAvatarsFile } from "./user-avatars.js";
import { deleteAvatar, setAvatar } from "./avatar.js";
import { deleteRealmIcon, deleteRealmLogo, uploadRealmIcon, uploadRealmLogo } from "./realm-images.js";
import { getAttachments, removeAttachment } from "./attachments.js";
import { getFileTemporaryUrl, serveFileDownload, serveFileFromToken, serveThumbnail, serveUploadedFile } from "./serve-file.js";
import { uploadFile } from "./upload-file.js";
import { createBot } from "./create-bot.js";
import { updateBot } from "./update-bot.js";
import { getAvatarRedirect, getMediumAvatarRedirect, getRealmIconRedirect, getRealmLogoRedirect } from "./image-redirects.js";

/**
 * Endpoints of the `files` group: uploads, attachments, avatars,
 * organization icons and logos, custom emoji — every route that reads or
 * writes the files bucket (the only group besides the worker that may).
 */
export const endpoints = {
  getCustomEmoji,
  uploadCustomEmoji,
  deactivateCustomEmoji,
  getUserAvatarsFile,
  setAvatar,
  deleteAvatar,
  uploadRealmIcon,
  deleteRealmIcon,
  uploadRealmLogo,
  deleteRealmLogo,
  uploadFile,
  getFileTemporaryUrl,
  serveUploadedFile,
  serveFileFromToken,
  serveFileDownload,
  serveThumbnail,
  getAttachments,
  removeAttachment,
  getAvatarRedirect,
  getMediumAvatarRedirect,
  getRealmIconRedirect,
  getRealmLogoRedirect,
  createBot,
  updateBot,
};

const config = loadConfig();

/**
 * The group's Lambda handler: the middy chain of `groupHandler` in front of
 * {@link endpoints}, with a file store (this group's endpoints need one).
 */
export const handler = groupHandler(endpoints, { ...createDeps(config), files: createS3FileStore(config) });
