import { NagSuppressions } from "cdk-nag";
import type { ChatApi } from "./http-api.js";
import type { ServiceFunction } from "./service-function.js";

/**
 * The cdk-nag (AWS Solutions) findings the stack accepts, each with the
 * reason it does not apply. Everything else is fixed rather than suppressed:
 * access logging and throttling on the API stage, a dead-letter queue and
 * SSL-only policies on the queues, point-in-time recovery on the table,
 * per-function roles writing only to their own log group (no
 * AWSLambdaBasicExecutionRole), table grants naming each index (no
 * `index/*`).
 */
export function addNagSuppressions(parts: { api: ChatApi; functions: ServiceFunction[] }): void {
  NagSuppressions.addResourceSuppressions(
    parts.api.api,
    [
      {
        id: "AwsSolutions-APIG4",
        reason:
          "Zulip clients authenticate every request with HTTP Basic (email + API key), and some routes " +
          "(server_settings, fetch_api_key, the web app's page and files) need no credentials at all; the " +
          "Lambdas check the key against the table. An API Gateway authorizer cannot express this without a second Lambda invocation " +
          "and table read per request.",
      },
    ],
    true,
  );
  for (const fn of parts.functions) {
    NagSuppressions.addResourceSuppressions(fn.fn, [
      {
        id: "AwsSolutions-L1",
        reason:
          "Node.js 22 (supported by Lambda until 2027) is the runtime the code is bundled for (esbuild " +
          "target node22) and tested against; moving to a newer runtime is a deliberate upgrade, not an " +
          "automatic one.",
      },
    ]);
  }
}
