import { jsonIntegration } from "./json.js";
import type { Integration } from "./types.js";

/**
 * Every integration by its URL name (`/api/v1/external/<name>`). Adding an
 * integration is one module under `shared/integrations/` and one line here.
 */
const INTEGRATIONS: readonly Integration[] = [
  jsonIntegration,
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
