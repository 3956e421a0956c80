/** One message that links an attachment, as `GET /attachments` lists it. */
export interface AttachmentMessageRef {
  id: number;
  /** When the message was sent, in UNIX milliseconds (Zulip's `date_sent` in attachment objects). */
  date_sent: number;
}

/** One stored thumbnail of an uploaded image (Zulip's `StoredThumbnailFormat`). */
export interface StoredThumbnail {
  /** The format's name, e.g. `840x560.webp` (shared/domain/thumbnails.ts). */
  name: string;
  /** The thumbnail's own size in pixels (of one frame when animated). */
  width: number;
  height: number;
  /** Bytes. */
  byte_size: number;
}

/**
 * What an uploaded image's own bytes say (Zulip's `ImageAttachment`): set at
 * upload when the file decodes as an image, so messages linking it render a
 * preview; `thumbnails` fill in as they are made.
 */
export interface ImageAttachmentInfo {
  /** Pixels as displayed (EXIF orientation applied), of one frame. */
  width: number;
  height: number;
  /** 1 for a still image. */
  frames: number;
  /** Empty until the thumbnail job (or a thumbnail request) makes them. */
  thumbnails: StoredThumbnail[];
}

/**
 * An uploaded file (Zulip's `Attachment`; https://zulip.com/api/get-attachments).
 * The bytes live in the files bucket under `path_id`.
 */
export interface AttachmentRecord {
  id: number;
  realm_id: number;
  owner_id: number;
  /** The client's file name, unsanitized (shown in the UI and used for downloads). */
  file_name: string;
  /** `<realm_id>/<2 hex>/<random>/<sanitized name>`: the URL path after `/user_uploads/` and the S3 key. */
  path_id: string;
  /** Bytes. */
  size: number;
  /** MIME type stored with the object (what S3 answers with). */
  content_type: string;
  /** Upload time in UNIX milliseconds. */
  create_time: number;
  /** Messages that claim the file, oldest first. */
  messages: AttachmentMessageRef[];
  /** Whether a message of a public stream claims it (Zulip's `is_realm_public`). */
  is_realm_public: boolean;
  /** Whether a message of a web-public stream claims it (Zulip's `is_web_public`). */
  is_web_public: boolean;
  /** Present when the file is an image the server thumbnails. */
  image?: ImageAttachmentInfo;
}
