import { alertmanagerIntegration } from "./alertmanager.js";
import { buildbotIntegration } from "./buildbot.js";
import { circleciIntegration } from "./circleci.js";
import { grafanaIntegration } from "./grafana.js";
import { jiraIntegration } from "./jira.js";
import { linearIntegration } from "./linear.js";
import { newrelicIntegration } from "./newrelic.js";
import { opsgenieIntegration } from "./opsgenie.js";
import { pagerdutyIntegration } from "./pagerduty.js";
import { sentryIntegration } from "./sentry.js";
import { slackIncomingIntegration } from "./slack-incoming.js";
import { teamcityIntegration } from "./teamcity.js";
import { travisIntegration } from "./travis.js";
import { trelloIntegration } from "./trello.js";
import type { Integration } from "./types.js";

/**
 * Every integration by its URL name (`/api/v1/external/<name>`). Adding an
 * integration is one module under `shared/integrations/` and one line here.
 */
const INTEGRATIONS: readonly Integration[] = [
  alertmanagerIntegration,
  buildbotIntegration,
  circleciIntegration,
  grafanaIntegration,
  jiraIntegration,
  linearIntegration,
  newrelicIntegration,
  opsgenieIntegration,
  pagerdutyIntegration,
  sentryIntegration,
  slackIncomingIntegration,
  teamcityIntegration,
  travisIntegration,
  trelloIntegration,
];

const BY_NAME = new Map(INTEGRATIONS.map((integration) => [integration.name, integration]));

/** The integration served at `/api/v1/external/<name>`, or undefined for an unknown name. */
export function integrationByName(name: string): Integration | undefined {
  return BY_NAME.get(name);
}

/** Every integration's URL name, sorted. */
export function integrationNames(): string[] {
  return [...BY_NAME.keys()].sort();
}
