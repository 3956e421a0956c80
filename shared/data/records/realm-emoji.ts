/** A custom emoji of an organization (Zulip's `RealmEmoji`; https://zulip.com/api/get-custom-emoji). */
export interface RealmEmojiRecord {
  id: number;
  realm_id: number;
  /** Lower-case letters, digits, `-` and `_` (Zulip's `check_valid_emoji_name`). */
  name: string;
  /** Object name below `<realm_id>/emoji/images/` in the files bucket, e.g. `3f9a0c1d2e4b5a67.png`. */
  file_name: string;
  /** Whether the image has more than one frame (then a still PNG is stored under `still/`). */
  is_animated: boolean;
  deactivated: boolean;
  /** The uploader; null when unknown. */
  author_id: number | null;
}
