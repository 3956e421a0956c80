import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { archiveStream } from "./archive-stream.js";
import { getStreamById } from "./get-stream-by-id.js";
import { getStreamId } from "./get-stream-id.js";
import { getStreamTopics } from "./get-stream-topics.js";
import { getStreams } from "./get-streams.js";
import { getSubscribers } from "./get-subscribers.js";
import { getSubscriptionStatus } from "./get-subscription-status.js";
import { getSubscriptions } from "./get-subscriptions.js";
import { muteTopic } from "./mute-topic.js";
import { subscribe } from "./subscribe.js";
import { unsubscribe } from "./unsubscribe.js";
import { updateStream } from "./update-stream.js";
import { updateSubscriptionProperties } from "./update-subscription-properties.js";
import { updateUserTopic } from "./update-user-topic.js";

/** Endpoints of the `streams` group, keyed by the route table's endpoint names. */
export const endpoints = {
  getSubscriptions,
  subscribe,
  unsubscribe,
  updateSubscriptionProperties,
  getStreamTopics,
  getSubscriptionStatus,
  getStreams,
  getStreamById,
  updateStream,
  archiveStream,
  getSubscribers,
  getStreamId,
  updateUserTopic,
  muteTopic,
};

export const handler = groupHandler(endpoints, createDeps());
