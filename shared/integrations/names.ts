/**
 * Every URL name served at `/api/v1/external/<name>`, aliases included:
 * what the authentication step of every API function checks before it
 * answers a webhook request. A list of its own so that those functions do
 * not bundle every integration's payload handling (about 100 KB) to know a
 * name; `names.test.ts` keeps it equal to the registry's.
 */
export const INTEGRATION_URL_NAMES: ReadonlySet<string> = new Set([
  "alertmanager",
  "ansibletower",
  "azuredevops",
  "bitbucket2",
  "bitbucket3",
  "buildbot",
  "circleci",
  "gitea",
  "github",
  "githubsponsors",
  "gitlab",
  "gogs",
  "grafana",
  "groove",
  "harbor",
  "homeassistant",
  "jira",
  "json",
  "linear",
  "netlify",
  "newrelic",
  "opsgenie",
  "pagerduty",
  "patreon",
  "radarr",
  "reviewboard",
  "sentry",
  "slack_incoming",
  "sonarqube",
  "sonarr",
  "splunk",
  "statuspage",
  "stripe",
  "taiga",
  "teamcity",
  "travis",
  "trello",
  "uptimerobot",
  "zabbix",
]);
