import type { GroupSettingValue } from "../../data/records/user-group.js";
import { SYSTEM_GROUP_ID_BASE } from "../../domain/realm-settings.js";

/**
 * The old → new ID maps of an import (Zulip's `update_id_map` /
 * `re_map_foreign_keys` in `zerver/lib/import_realm.py`), and the rewriting
 * of what names those IDs inside text: message content and its rendering,
 * stream descriptions, edit history, group-setting values.
 */
export interface ImportMaps {
  oldRealmId: number;
  newRealmId: number;
  users: Map<number, number>;
  streams: Map<number, number>;
  /** Stream recipient IDs. */
  recipients: Map<number, number>;
  messages: Map<number, number>;
  /** User-created groups (system groups follow {@link mapGroupId}'s rule). */
  groups: Map<number, number>;
  emoji: Map<number, number>;
  /** Upload path IDs (`<realm>/<..>/<..>/<name>`). */
  paths: Map<string, string>;
}

/** An empty set of maps between two realms. */
export function emptyMaps(oldRealmId: number, newRealmId: number): ImportMaps {
  return { oldRealmId, newRealmId, users: new Map(), streams: new Map(), recipients: new Map(), messages: new Map(), groups: new Map(), emoji: new Map(), paths: new Map() };
}

/**
 * A group ID in the new realm: a user-created group's by the map, a system
 * group's by its place among the old realm's system groups (their IDs are
 * derived from the realm ID, see `systemGroupId`). Undefined for an ID of
 * neither kind.
 */
export function mapGroupId(maps: ImportMaps, id: number): number | undefined {
  const mapped = maps.groups.get(id);
  if (mapped !== undefined) return mapped;
  const index = id - SYSTEM_GROUP_ID_BASE - maps.oldRealmId * 16;
  return index >= 0 && index < 16 ? SYSTEM_GROUP_ID_BASE + maps.newRealmId * 16 + index : undefined;
}

/** A group-setting value in the new realm; an unknown group falls back to `fallback`, unknown members and subgroups are dropped. */
export function mapGroupSetting(maps: ImportMaps, value: unknown, fallback: number): GroupSettingValue {
  if (typeof value === "number") return mapGroupId(maps, value) ?? fallback;
  if (value && typeof value === "object" && Array.isArray((value as Record<string, unknown>).direct_members)) {
    const v = value as { direct_members: unknown[]; direct_subgroups?: unknown[] };
    return {
      direct_members: v.direct_members.map((id) => maps.users.get(Number(id))).filter((id): id is number => id !== undefined),
      direct_subgroups: (v.direct_subgroups ?? []).map((id) => mapGroupId(maps, Number(id))).filter((id): id is number => id !== undefined),
    };
  }
  return fallback;
}

const swap = (map: Map<number, number>) => (whole: string, prefix: string, id: string) => {
  const mapped = map.get(Number(id));
  return mapped === undefined ? whole : `${prefix}${mapped}`;
};

/**
 * Rewrites Markdown or HTML of the old realm for the new one:
 * - `/user_uploads/<old path>` (and its `thumbnail/` form) → the new path;
 * - `/user_avatars/<old realm>/emoji/` → the new realm's (custom emoji images);
 * - `data-user-id`, `data-user-group-id`, `data-stream-id` attributes;
 * - narrow links: `channel/<id>-` / `stream/<id>-`, `near/<id>` / `with/<id>`, `dm/<ids>-`.
 * IDs without a mapping (a private stream's message, a user of another realm) are left as they are.
 */
export function remapText(text: string, maps: ImportMaps): string {
  let out = text;
  for (const [oldPath, newPath] of maps.paths) {
    if (!out.includes(oldPath)) continue;
    out = out.replaceAll(`/user_uploads/${oldPath}`, `/user_uploads/${newPath}`).replaceAll(`/user_uploads/thumbnail/${oldPath}/`, `/user_uploads/thumbnail/${newPath}/`);
  }
  out = out.replaceAll(`/user_avatars/${maps.oldRealmId}/emoji/`, `/user_avatars/${maps.newRealmId}/emoji/`);
  out = out.replace(/(data-user-id=")(\d+)(?=")/g, swap(maps.users));
  out = out.replace(/(data-stream-id=")(\d+)(?=")/g, swap(maps.streams));
  out = out.replace(/(data-user-group-id=")(\d+)(?=")/g, (whole, prefix: string, id: string) => {
    const mapped = mapGroupId(maps, Number(id));
    return mapped === undefined ? whole : `${prefix}${mapped}`;
  });
  out = out.replace(/(#narrow\/(?:channel|stream)\/)(\d+)(?=-|\/|"|\)|$)/g, swap(maps.streams));
  out = out.replace(/(\/(?:near|with)\/)(\d+)/g, swap(maps.messages));
  out = out.replace(/(#narrow\/dm\/)([\d,]+)(?=-)/g, (_whole, prefix: string, ids: string) =>
    prefix + ids.split(",").map((id) => maps.users.get(Number(id)) ?? id).join(","),
  );
  return out;
}

/** Who a rendered message mentions, read from its (remapped) HTML the way the renderer wrote it. */
export function mentionsOfRendered(html: string): { mentioned_user_ids: number[]; mentioned_group_ids: number[]; wildcard_mentioned: boolean } {
  const users = new Set<number>();
  const groups = new Set<number>();
  let wildcard = false;
  for (const m of html.matchAll(/class="user-mention" data-user-id="(\d+|\*)"/g)) {
    if (m[1] === "*") wildcard = true;
    else users.add(Number(m[1]));
  }
  for (const m of html.matchAll(/class="user-group-mention" data-user-group-id="(\d+)"/g)) groups.add(Number(m[1]));
  if (/class="topic-mention"/.test(html)) wildcard = true;
  return { mentioned_user_ids: [...users], mentioned_group_ids: [...groups], wildcard_mentioned: wildcard };
}

/**
 * A message's edit history (Zulip's `edit_history`: a JSON list, most
 * recent edit first) for the new realm: editors and streams remapped,
 * earlier content's links rewritten. Unreadable history is dropped.
 */
export function remapEditHistory(raw: unknown, maps: ImportMaps): Record<string, unknown>[] {
  let list: unknown = raw;
  if (typeof raw === "string") {
    try {
      list = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list
    .filter((e): e is Record<string, unknown> => e !== null && typeof e === "object")
    .map((e) => {
      const out: Record<string, unknown> = { ...e };
      if (typeof e.user_id === "number") out.user_id = maps.users.get(e.user_id) ?? null;
      for (const key of ["prev_stream", "stream"]) {
        if (typeof e[key] === "number") out[key] = maps.streams.get(e[key] as number) ?? e[key];
      }
      for (const key of ["prev_content", "prev_rendered_content"]) {
        if (typeof e[key] === "string") out[key] = remapText(e[key] as string, maps);
      }
      return out;
    });
}
