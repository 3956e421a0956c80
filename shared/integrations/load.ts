import type { Integration } from "./types.js";

/**
 * The incoming-webhook integrations loaded one at a time: each module is
 * reached only through its dynamic `import()` here, so the bundler puts it
 * in a chunk of its own (infra/bundling.ts) and a `webhooks` request loads
 * the one integration it names, not all of them (about 100 KiB together).
 * `registry.ts` lists them eagerly for tests and tools; `names.test.ts`
 * keeps both equal.
 */
const LOADERS: Readonly<Record<string, () => Promise<Integration>>> = {
  alertmanager: async () => (await import("./alertmanager.js")).alertmanagerIntegration,
  ansibletower: async () => (await import("./ansibletower.js")).ansibletowerIntegration,
  azuredevops: async () => (await import("./azuredevops.js")).azuredevopsIntegration,
  bitbucket2: async () => (await import("./bitbucket2.js")).bitbucket2Integration,
  bitbucket3: async () => (await import("./bitbucket3.js")).bitbucket3Integration,
  buildbot: async () => (await import("./buildbot.js")).buildbotIntegration,
  circleci: async () => (await import("./circleci.js")).circleciIntegration,
  gitea: async () => (await import("./gitea.js")).giteaIntegration,
  github: async () => (await import("./github/github.js")).githubIntegration,
  gitlab: async () => (await import("./gitlab/gitlab.js")).gitlabIntegration,
  gogs: async () => (await import("./gogs.js")).gogsIntegration,
  grafana: async () => (await import("./grafana.js")).grafanaIntegration,
  groove: async () => (await import("./groove.js")).grooveIntegration,
  harbor: async () => (await import("./harbor.js")).harborIntegration,
  homeassistant: async () => (await import("./homeassistant.js")).homeassistantIntegration,
  jira: async () => (await import("./jira.js")).jiraIntegration,
  json: async () => (await import("./json.js")).jsonIntegration,
  linear: async () => (await import("./linear.js")).linearIntegration,
  netlify: async () => (await import("./netlify.js")).netlifyIntegration,
  newrelic: async () => (await import("./newrelic.js")).newrelicIntegration,
  opsgenie: async () => (await import("./opsgenie.js")).opsgenieIntegration,
  pagerduty: async () => (await import("./pagerduty.js")).pagerdutyIntegration,
  patreon: async () => (await import("./patreon.js")).patreonIntegration,
  radarr: async () => (await import("./radarr.js")).radarrIntegration,
  reviewboard: async () => (await import("./reviewboard.js")).reviewboardIntegration,
  sentry: async () => (await import("./sentry.js")).sentryIntegration,
  "slack_incoming": async () => (await import("./slack-incoming.js")).slackIncomingIntegration,
  sonarqube: async () => (await import("./sonarqube.js")).sonarqubeIntegration,
  sonarr: async () => (await import("./sonarr.js")).sonarrIntegration,
  splunk: async () => (await import("./splunk.js")).splunkIntegration,
  statuspage: async () => (await import("./statuspage.js")).statuspageIntegration,
  stripe: async () => (await import("./stripe.js")).stripeIntegration,
  taiga: async () => (await import("./taiga.js")).taigaIntegration,
  teamcity: async () => (await import("./teamcity.js")).teamcityIntegration,
  travis: async () => (await import("./travis.js")).travisIntegration,
  trello: async () => (await import("./trello.js")).trelloIntegration,
  uptimerobot: async () => (await import("./uptimerobot.js")).uptimerobotIntegration,
  zabbix: async () => (await import("./zabbix.js")).zabbixIntegration,
};

/**
 * Further URL names of an integration: GitHub Sponsors posts to
 * `/external/githubsponsors`, which Zulip serves with its GitHub webhook.
 */
const ALIASES: Readonly<Record<string, string>> = { githubsponsors: "github" };

/**
 * The integration served at `/api/v1/external/<name>` (an alias gives its
 * integration), loaded on first use; undefined for an unknown name.
 * @throws Error when its module cannot be loaded (a bundle built without its chunk)
 */
export async function loadIntegration(name: string): Promise<Integration | undefined> {
  const canonical = Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name;
  return Object.hasOwn(LOADERS, canonical) ? LOADERS[canonical]!() : undefined;
}
