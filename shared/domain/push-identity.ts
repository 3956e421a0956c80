import { createHash } from "node:crypto";

/**
 * A user's UUID at Zulip's push notification service (Zulip's
 * `UserProfile.uuid`): derived, not stored — a version-4-shaped UUID from
 * the SHA-256 of the organization's UUID and the user's ID, so it is the
 * same on every call, differs between users and organizations, and costs
 * no read or write.
 * @param realmUuid the organization's UUID (`ensureRealmUuid`)
 */
export function pushUserUuid(realmUuid: string, userId: number): string {
  const b = createHash("sha256").update(`${realmUuid}:user:${userId}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
