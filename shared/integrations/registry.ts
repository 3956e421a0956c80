import { alertmanagerIntegration } from "./alertmanager.js";
import { ansibletowerIntegration } from "./ansibletower.js";
import { azuredevopsIntegration } from "./azuredevops.js";
import { bitbucket2Integration } from "./bitbucket2.js";
import { bitbucket3Integration } from "./bitbucket3.js";
import { buildbotIntegration } from "./buildbot.js";
import { circleciIntegration } from "./circleci.js";
import { giteaIntegration } from "./gitea.js";
import { githubIntegration } from "./github/github.js";
import { gitlabIntegration } from "./gitlab/gitlab.js";
import { gogsIntegration } from "./gogs.js";
import { grafanaIntegration } from "./grafana.js";
import { grooveIntegration } from "./groove.js";
import { harborIntegration } from "./harbor.js";
import { homeassistantIntegration } from "./homeassistant.js";
import { jiraIntegration } from "./jira.js";
import { jsonIntegration } from "./json.js";
import { linearIntegration } from "./linear.js";
import { netlifyIntegration } from "./netlify.js";
import { newrelicIntegration } from "./newrelic.js";
import { opsgenieIntegration } from "./opsgenie.js";
import { pagerdutyIntegration } from "./pagerduty.js";
import { patreonIntegration } from "./patreon.js";
import { radarrIntegration } from "./radarr.js";
import { reviewboardIntegration } from "./reviewboard.js";
import { sentryIntegration } from "./sentry.js";
import { slackIncomingIntegration } from "./slack-incoming.js";
import { sonarqubeIntegration } from "./sonarqube.js";
import { sonarrIntegration } from "./sonarr.js";
import { splunkIntegration } from "./splunk.js";
import { statuspageIntegration } from "./statuspage.js";
import { stripeIntegration } from "./stripe.js";
import { taigaIntegration } from "./taiga.js";
import { teamcityIntegration } from "./teamcity.js";
import { travisIntegration } from "./travis.js";
import { trelloIntegration } from "./trello.js";
import { uptimerobotIntegration } from "./uptimerobot.js";
import { zabbixIntegration } from "./zabbix.js";
import type { Integration } from "./types.js";

/**
 * Every integration by its URL name (`/api/v1/external/<name>`). Adding an
 * integration is one module under `shared/integrations/` and one line here.
 */
const INTEGRATIONS: readonly Integration[] = [
  alertmanagerIntegration,
  ansibletowerIntegration,
  azuredevopsIntegration,
  bitbucket2Integration,
  bitbucket3Integration,
  buildbotIntegration,
  circleciIntegration,
  giteaIntegration,
  githubIntegration,
  gitlabIntegration,
  gogsIntegration,
  grafanaIntegration,
  grooveIntegration,
  harborIntegration,
  homeassistantIntegration,
  jiraIntegration,
  jsonIntegration,
  linearIntegration,
  netlifyIntegration,
  newrelicIntegration,
  opsgenieIntegration,
  pagerdutyIntegration,
  patreonIntegration,
  radarrIntegration,
  reviewboardIntegration,
  sentryIntegration,
  slackIncomingIntegration,
  sonarqubeIntegration,
  sonarrIntegration,
  splunkIntegration,
  statuspageIntegration,
  stripeIntegration,
  taigaIntegration,
  teamcityIntegration,
  travisIntegration,
  trelloIntegration,
  uptimerobotIntegration,
  zabbixIntegration,
];

const BY_NAME = new Map(INTEGRATIONS.map((integration) => [integration.name, integration]));

/**
 * Further URL names of an integration: GitHub Sponsors posts to
 * `/external/githubsponsors`, which Zulip serves with its GitHub webhook.
 */
const ALIASES: Readonly<Record<string, string>> = { githubsponsors: "github" };

/** The integration served at `/api/v1/external/<name>` (an alias gives its integration), or undefined for an unknown name. */
export function integrationByName(name: string): Integration | undefined {
  return BY_NAME.get(Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name);
}

/** Every integration's URL name, sorted. */
export function integrationNames(): string[] {
  return [...BY_NAME.keys()].sort();
}
