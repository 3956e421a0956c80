/**
 * The push notification service's credentials of a deployed stack, for
 * `npm run manage` (docs/deploying.md, "Mobile push notifications"): the
 * stack keeps `{"zulip_org_id", "zulip_org_key"}` in a Secrets Manager
 * secret and names it in its `PushNotificationsSecretArn` output
 * (infra/constructs/push-notifications.ts); the CLI reads it with the operator's AWS
 * credentials, as the functions get it from their environment.
 */
import { CloudFormationClient } from "@aws-sdk/client-cloudformation";
import { AwsClient } from "aws4fetch";

/** Reads a secret's `SecretString`; tests pass a stub. */
export type SecretReader = (secretId: string, region: string | undefined) => Promise<string>;

/**
 * Secrets Manager's `GetSecretValue` over its JSON API, signed by
 * `aws4fetch` with the credentials the AWS SDK finds (environment, profile,
 * SSO…; the project carries no Secrets Manager client). One request, whose
 * price is Secrets Manager's ($0.05 per 10,000 calls).
 * @see https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_GetSecretValue.html
 * @throws Error with Secrets Manager's error type when the read is refused
 */
export const readSecretString: SecretReader = async (secretId, region) => {
  // The SDK's default chain resolves the operator's credentials (and region) as the CloudFormation lookup does.
  const sdk = new CloudFormationClient(region ? { region } : {});
  try {
    const credentials = await sdk.config.credentials();
    const resolvedRegion = region ?? (await sdk.config.region());
    const client = new AwsClient({
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
      service: "secretsmanager",
      region: resolvedRegion,
    });
    const response = await client.fetch(`https://secretsmanager.${resolvedRegion}.amazonaws.com/`, {
      method: "POST",
      headers: { "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "secretsmanager.GetSecretValue" },
      body: JSON.stringify({ SecretId: secretId }),
    });
    const body = (await response.json()) as { SecretString?: string; __type?: string; message?: string; Message?: string };
    if (!response.ok || typeof body.SecretString !== "string") {
      throw new Error(`cannot read secret ${secretId}: ${body.__type ?? response.status} ${body.message ?? body.Message ?? ""}`.trim());
    }
    return body.SecretString;
  } finally {
    sdk.destroy();
  }
};

/**
 * The environment variables of the push notification service for a stack
 * whose outputs name its secret: `PUSH_NOTIFICATION_BOUNCER_URL` from the
 * `PushNotificationBouncerUrl` output, `ZULIP_ORG_ID` and `ZULIP_ORG_KEY`
 * from the secret. Nothing for a stack without push notifications, or when
 * the environment already sets `ZULIP_ORG_KEY` (it wins).
 * @throws Error when the secret cannot be read or is not the stack's JSON
 */
export async function pushEnvironmentForStack(
  outputs: Record<string, string>,
  region: string | undefined,
  env: Record<string, string | undefined>,
  readSecret: SecretReader = readSecretString,
): Promise<Record<string, string>> {
  const secretArn = outputs.PushNotificationsSecretArn;
  if (!secretArn || env.ZULIP_ORG_KEY) return {};
  const secret = JSON.parse(await readSecret(secretArn, region)) as { zulip_org_id?: unknown; zulip_org_key?: unknown };
  if (typeof secret.zulip_org_id !== "string" || typeof secret.zulip_org_key !== "string") {
    throw new Error(`secret ${secretArn} holds no zulip_org_id and zulip_org_key`);
  }
  return {
    ...(outputs.PushNotificationBouncerUrl && !env.PUSH_NOTIFICATION_BOUNCER_URL
      ? { PUSH_NOTIFICATION_BOUNCER_URL: outputs.PushNotificationBouncerUrl }
      : {}),
    ZULIP_ORG_ID: secret.zulip_org_id,
    ZULIP_ORG_KEY: secret.zulip_org_key,
  };
}
