import { azuredevopsIntegration } from "./azuredevops.js";
import { bitbucket2Integration } from "./bitbucket2.js";
import { bitbucket3Integration } from "./bitbucket3.js";
import { giteaIntegration } from "./gitea.js";
import { githubIntegration } from "./github/index.js";
import { gitlabIntegration } from "./gitlab/index.js";
import { gogsIntegration } from "./gogs.js";
import type { Integration } from "./types.js";

/**
 * Every integration by its URL name (`/api/v1/external/<name>`). Adding an
 * integration is one module under `shared/integrations/` and one line here.
 */
const INTEGRATIONS: readonly Integration[] = [
  azuredevopsIntegration,
  bitbucket2Integration,
  bitbucket3Integration,
  giteaIntegration,
  githubIntegration,
  gitlabIntegration,
  gogsIntegration,
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
