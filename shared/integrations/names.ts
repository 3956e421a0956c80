/**
 * What the API functions other than `webhooks` need to know of the
 * incoming-webhook integrations: their URL names and how register lists
 * them (`realm_incoming_webhook_bots`). Kept apart from the registry so
 * that those functions do not bundle every integration's payload handling
 * (about 100 KB); `names.test.ts` keeps both equal to the registry's.
 */

/** One integration as register's `realm_incoming_webhook_bots` lists it. */
export interface IntegrationListing {
  /** The URL name: `/api/v1/external/<name>`. */
  name: string;
  displayName: string;
  /** Every event type the integration reports, when it lists them. */
  allEventTypes?: readonly string[];
}

/** Every integration, sorted by URL name (aliases aside). */
export const INTEGRATION_LISTINGS: readonly IntegrationListing[] = [
  { name: "alertmanager", displayName: "Alertmanager" },
  { name: "ansibletower", displayName: "AnsibleTower" },
  { name: "azuredevops", displayName: "AzureDevOps" },
  { name: "bitbucket2", displayName: "Bitbucket2" },
  { name: "bitbucket3", displayName: "Bitbucket3" },
  { name: "buildbot", displayName: "Buildbot" },
  { name: "circleci", displayName: "CircleCI" },
  { name: "gitea", displayName: "Gitea" },
  { name: "github", displayName: "GitHub" },
  { name: "gitlab", displayName: "GitLab" },
  { name: "gogs", displayName: "Gogs" },
  { name: "grafana", displayName: "Grafana" },
  { name: "groove", displayName: "Groove" },
  { name: "harbor", displayName: "Harbor" },
  { name: "homeassistant", displayName: "HomeAssistant" },
  { name: "jira", displayName: "Jira" },
  { name: "json", displayName: "JSON" },
  { name: "linear", displayName: "Linear" },
  { name: "netlify", displayName: "Netlify" },
  { name: "newrelic", displayName: "NewRelic" },
  { name: "opsgenie", displayName: "Opsgenie" },
  { name: "pagerduty", displayName: "PagerDuty" },
  { name: "patreon", displayName: "Patreon" },
  { name: "radarr", displayName: "Radarr" },
  { name: "reviewboard", displayName: "ReviewBoard" },
  { name: "sentry", displayName: "Sentry" },
  { name: "slack_incoming", displayName: "SlackIncoming" },
  { name: "sonarqube", displayName: "Sonarqube" },
  { name: "sonarr", displayName: "Sonarr" },
  { name: "splunk", displayName: "Splunk" },
  { name: "statuspage", displayName: "Statuspage" },
  { name: "stripe", displayName: "Stripe" },
  { name: "taiga", displayName: "Taiga" },
  { name: "teamcity", displayName: "TeamCity" },
  { name: "travis", displayName: "Travis" },
  { name: "trello", displayName: "Trello" },
  { name: "uptimerobot", displayName: "UptimeRobot" },
  { name: "zabbix", displayName: "Zabbix" },
];

/** Further URL names served by an integration of {@link INTEGRATION_LISTINGS}. */
const URL_ALIASES: readonly string[] = ["githubsponsors"];

/** Every URL name served at `/api/v1/external/<name>`, aliases included. */
export const INTEGRATION_URL_NAMES: ReadonlySet<string> = new Set([...INTEGRATION_LISTINGS.map((i) => i.name), ...URL_ALIASES]);
