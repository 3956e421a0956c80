import { describe, expect, it } from "vitest";
import { parseParams } from "./params.js";
import { USER_SETTING_PARAMS } from "./user-settings-params.js";

const parse = (raw: Record<string, string>) => parseParams(new Map(Object.entries(raw)), USER_SETTING_PARAMS);

describe("USER_SETTING_PARAMS", () => {
  it("decodes booleans and integers as JSON and strings raw", () => {
    const p = parse({ enter_sends: "true", color_scheme: "2", emojiset: "text", timezone: "UTC" });
    expect(p).toMatchObject({ enter_sends: true, color_scheme: 2, emojiset: "text", timezone: "UTC" });
    expect(p.dense_mode).toBeUndefined();
  });

  it.each([
    [{ color_scheme: "0" }, "Invalid color_scheme"],
    [{ emojiset: "apple" }, "Invalid emojiset"],
    [{ web_animate_image_previews: "sometimes" }, "Invalid web_animate_image_previews"],
    [{ automatically_follow_topics_policy: "5" }, "Invalid automatically_follow_topics_policy"],
    [{ email_address_visibility: "0" }, "Invalid email_address_visibility"],
    [{ email_notifications_batching_period_seconds: "604801" }, "Invalid email batching period: 604801 seconds"],
    [{ notification_sound: "gong" }, "Invalid notification sound 'gong'"],
    [{ enter_sends: '"yes"' }, "enter_sends is not a boolean"],
    [{ color_scheme: "1.5" }, "color_scheme is not an integer"],
  ])("refuses %j with %s", (raw, msg) => {
    expect(() => parse(raw as Record<string, string>)).toThrow(msg);
  });

  it("accepts the boundaries", () => {
    expect(parse({ email_notifications_batching_period_seconds: "604800" })).toMatchObject({
      email_notifications_batching_period_seconds: 604800,
    });
    expect(parse({ notification_sound: "none", default_language: "zh-hans" })).toMatchObject({
      notification_sound: "none",
      default_language: "zh-hans",
    });
  });
});
