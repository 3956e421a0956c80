import { randomBytes } from "node:crypto";
import type { FilesDeps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import { deactivateRealmEmoji, putRealmEmoji } from "../../data/realm-emoji.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserGroupRecord } from "../../data/records/user-group.js";
import { writeUserGroups } from "../../data/user-groups.js";
import { systemGroupId } from "../../domain/realm-settings.js";
import { avatarObjectKeys } from "../../storage/object-keys.js";
import { resizeUploadedImage } from "../users/avatar.js";
import type { Row } from "./export-tables.js";
import type { ExportArchive } from "./import-archive.js";
import { mapGroupId, mapGroupSetting, type ImportMaps } from "./import-remap.js";

/** The parts of an import besides users, streams and messages: user groups and custom emoji. */

const num = (v: unknown): number => (typeof v === "number" ? v : Number.NaN);
const IMMUTABLE = "public, max-age=31536000, immutable";
const EMOJI_TYPES: Record<string, string> = { png: "image/png", gif: "image/gif", jpeg: "image/jpeg", webp: "image/webp" };

/**
 * Writes the archive's user-created groups (`zerver_usergroup` rows that
 * are not system groups; system groups are derived from roles) with their
 * members (`zerver_usergroupmembership`), subgroups
 * (`zerver_groupgroupmembership`) and group settings, all remapped; one
 * transaction per group, claiming its name.
 * @throws JsonableError 400 when the archive names a group twice
 */
export async function importUserGroups(deps: FilesDeps, realm: RealmRecord, maps: ImportMaps, t: Record<string, Row[]>): Promise<void> {
  const members = new Map<number, number[]>();
  for (const m of t.zerver_usergroupmembership ?? []) {
    const user = maps.users.get(num(m.user_profile));
    if (user === undefined) continue;
    members.set(num(m.user_group), [...(members.get(num(m.user_group)) ?? []), user]);
  }
  const subgroups = new Map<number, number[]>();
  for (const g of t.zerver_groupgroupmembership ?? []) {
    const sub = mapGroupId(maps, num(g.subgroup));
    if (sub !== undefined) subgroups.set(num(g.supergroup), [...(subgroups.get(num(g.supergroup)) ?? []), sub]);
  }
  const nobody = systemGroupId(realm.id, "role:nobody");
  for (const row of t.zerver_usergroup ?? []) {
    const id = maps.groups.get(num(row.id));
    if (id === undefined) continue;
    const creator = maps.users.get(num(row.creator));
    const record: UserGroupRecord = {
      id,
      realm_id: realm.id,
      name: String(row.name ?? ""),
      description: typeof row.description === "string" ? row.description : "",
      members: [...new Set(members.get(num(row.id)) ?? [])].sort((a, b) => a - b),
      direct_subgroup_ids: [...new Set(subgroups.get(num(row.id)) ?? [])].sort((a, b) => a - b),
      can_manage_group: mapGroupSetting(maps, row.can_manage_group, nobody),
      can_mention_group: mapGroupSetting(maps, row.can_mention_group, systemGroupId(realm.id, "role:everyone")),
      creator_id: creator ?? null,
      date_created: typeof row.date_created === "number" ? row.date_created : Math.floor(deps.clock.now() / 1000),
      version: 0,
    };
    const ok = await writeUserGroups(deps, realm.id, { put: [{ record, readVersion: undefined }], claimNames: [{ name: record.name, groupId: id }] });
    if (!ok) throw new JsonableError(`User group '${record.name}' appears twice in the archive`);
  }
}

/**
 * Writes the archive's custom emoji (`zerver_realmemoji`, images under
 * `emoji/<old key>`): each image copied to the new organization's key
 * (an animated one also gets its still PNG, made again), the record with
 * its new ID and remapped author. Emoji whose image is missing are skipped.
 * @returns how many emoji were imported
 */
export async function importEmoji(deps: FilesDeps, archive: ExportArchive, realm: RealmRecord, maps: ImportMaps, rows: Row[]): Promise<number> {
  const records = (await archive.json("emoji/records.json")) as Row[] | undefined;
  const pathOf = new Map((Array.isArray(records) ? records : []).map((r) => [String(r.file_name), String(r.path ?? r.s3_path ?? "")]));
  let count = 0;
  // Deactivated emoji first: each is written active and then deactivated, which frees its name for a later one.
  const ordered = [...rows.filter((r) => r.deactivated === true), ...rows.filter((r) => r.deactivated !== true)];
  for (const row of ordered) {
    const id = maps.emoji.get(num(row.id));
    const oldName = String(row.file_name ?? "");
    if (id === undefined || !oldName) continue;
    const bytes = await archive.bytes(`emoji/${pathOf.get(oldName) ?? avatarObjectKeys.emoji(maps.oldRealmId, oldName)}`);
    if (!bytes) continue;
    const ext = /\.(png|gif|jpeg|webp)$/.exec(oldName)?.[1] ?? "png";
    // Our emoji keys are 16 hex digits and a known extension; other names get one.
    const fileName = /^[0-9a-f]{16}\.(png|gif|jpeg|webp)$/.test(oldName) ? oldName : `${randomBytes(8).toString("hex")}.${ext}`;
    const animated = row.is_animated === true;
    await deps.files.put(avatarObjectKeys.emoji(realm.id, fileName), bytes, { contentType: EMOJI_TYPES[ext]!, cacheControl: IMMUTABLE });
    if (animated) {
      const still = await resizeUploadedImage(bytes, { width: 64, height: 64, fit: "cover", format: "png", animated: false }).catch(() => undefined);
      if (still) await deps.files.put(avatarObjectKeys.emojiStill(realm.id, fileName), still, { contentType: "image/png", cacheControl: IMMUTABLE });
    }
    const author = maps.users.get(num(row.author));
    const record = { id, realm_id: realm.id, name: String(row.name ?? ""), file_name: fileName, is_animated: animated, deactivated: false, author_id: author ?? null };
    const ok = await putRealmEmoji(deps, record);
    if (ok && row.deactivated === true) await deactivateRealmEmoji(deps, record);
    if (!ok) throw new JsonableError(`Emoji '${String(row.name)}' appears twice in the archive`);
    count++;
  }
  return count;
}
