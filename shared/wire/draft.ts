import type { DraftRecord, DraftType } from "../data/records/draft.js";

/** A draft on the wire (OpenAPI `Draft`, https://zulip.com/api/get-drafts): `timestamp` in UNIX seconds. */
export interface WireDraft {
  id: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** A stored draft as `GET /drafts`, `POST /register` and `drafts` events show it (Zulip's `Draft.to_dict`). */
export function draftToWire(draft: DraftRecord): WireDraft {
  return {
    id: draft.id,
    type: draft.type,
    to: [...draft.to],
    topic: draft.topic,
    content: draft.content,
    timestamp: draft.timestamp,
  };
}
