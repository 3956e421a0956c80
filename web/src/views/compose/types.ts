/** Where a message goes: a stream and topic, or a direct-message conversation (the other people's IDs). */
export type ComposeTarget =
  | { type: "stream"; stream_id: number; topic: string }
  | { type: "private"; user_ids: number[] };

/** What the compose box needs to know of the people and streams it offers. */
export interface ComposePerson {
  user_id: number;
  full_name: string;
  email: string;
}
export interface ComposeStream {
  stream_id: number;
  name: string;
}
