/**
 * A registered mobile device (Zulip's `PushDeviceToken`): stored whether or
 * not push notifications are configured, since it tells which users have a
 * phone to notify and is what the server reports to the push notification
 * service (`shared/push/`).
 */
export interface PushDeviceRecord {
  user_id: number;
  /** 1 APNs (iOS), 2 FCM (Android): `PushTokenKind` of `shared/push/bouncer.ts`. */
  kind: number;
  /** The token the device's platform gave the app: at most 4,096 characters. */
  token: string;
  /** The iOS app's bundle ID (`appid`), APNs tokens only. */
  ios_app_id?: string;
  /** UNIX seconds of the first registration (Zulip's `last_updated`). */
  date_created: number;
}
