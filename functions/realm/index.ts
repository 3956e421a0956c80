import { groupHandler } from "../../shared/http/group-handler.js";
import { deactivateRealm } from "./deactivate-realm.js";
import { addDefaultStream, removeDefaultStream } from "./default-streams.js";
import { addCodePlayground, removeCodePlayground } from "./playgrounds.js";
import { updateRealm } from "./update-realm.js";
import { updateRealmUserSettingsDefaults } from "./update-user-settings-defaults.js";

/**
 * Endpoints of the `realm` group (organization administration: settings,
 * custom profile fields, user groups, playgrounds, default streams, default
 * settings for new users), keyed by the route table's endpoint names.
 */
export const endpoints = {
  updateRealm,
  deactivateRealm,
  addCodePlayground,
  removeCodePlayground,
  updateRealmUserSettingsDefaults,
  addDefaultStream,
  removeDefaultStream,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints);
