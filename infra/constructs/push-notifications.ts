import { CfnOutput, RemovalPolicy } from "aws-cdk-lib";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { PUSH_BOUNCER_UPDATE_JOB } from "../../shared/actions/push/server-data.js";
import { DailyJob } from "./daily-job.js";

export interface PushNotificationsProps {
  /** The service's base URL (`PUSH_NOTIFICATION_BOUNCER_URL`). */
  bouncerUrl: string;
  /** This server's UUID at the service (`ZULIP_ORG_ID`). */
  zulipOrgId: string;
  /** The deferred-work queue: the daily upload is a job on it. */
  queue: sqs.IQueue;
  /** The functions that talk to the service: the worker, the device endpoints' group, `/server_settings`'s group. */
  functions: lambda.Function[];
  /**
   * Functions that only clear notifications from phones (edits and deletions
   * of messages): they get the service's URL alone, which tells them rows may
   * carry notifications (`pushNotificationsInUse`), and never the key.
   */
  clearingFunctions: lambda.Function[];
}

/**
 * Mobile push notifications through Zulip's push notification service
 * (docs/deploying.md, "Mobile push notifications"), with the
 * `pushNotifications` setting:
 *
 * - a Secrets Manager secret `{"zulip_org_id", "zulip_org_key"}`, the key
 *   generated once (64 letters and digits, as Zulip's `zulip_org_key`) and
 *   kept across deploys and stack deletion: it is the server's identity at
 *   the service. $0.40 a month.
 * - `PUSH_NOTIFICATION_BOUNCER_URL`, `ZULIP_ORG_ID` and `ZULIP_ORG_KEY` on
 *   the given functions; the key as a CloudFormation dynamic reference
 *   (`{{resolve:secretsmanager:…}}`), resolved at deploy time, so the
 *   template and the cloud assembly hold only the secret's ARN; the URL
 *   alone on the functions that only clear notifications (`messages`).
 * - the daily `push_bouncer_update` job (organizations and user counts
 *   reported, plan status read back; Zulip uploads daily from cron).
 * - the outputs `npm run manage` reads to talk to the service as the
 *   functions do (`PushNotificationBouncerUrl`, `PushNotificationsSecretArn`;
 *   scripts/push-secret.ts).
 */
export class PushNotifications extends Construct {
  readonly secret: Secret;
  readonly schedule: DailyJob;

  constructor(scope: Construct, id: string, props: PushNotificationsProps) {
    super(scope, id);
    this.secret = new Secret(this, "Credentials", {
      description: "This server's credentials at Zulip's push notification service (zulip_org_id, zulip_org_key)",
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ zulip_org_id: props.zulipOrgId }),
        generateStringKey: "zulip_org_key",
        passwordLength: 64,
        excludePunctuation: true,
        includeSpace: false,
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: "AwsSolutions-SMG4",
        reason:
          "The key is the server's registration at the push notification service, which must be told of a new one: " +
          "it is rotated with npm run manage -- register-push-server --rotate-key, not by Secrets Manager",
      },
    ]);
    const environment = {
      PUSH_NOTIFICATION_BOUNCER_URL: props.bouncerUrl,
      ZULIP_ORG_ID: props.zulipOrgId,
      ZULIP_ORG_KEY: this.secret.secretValueFromJson("zulip_org_key").unsafeUnwrap(),
    };
    for (const fn of props.functions) {
      for (const [name, value] of Object.entries(environment)) fn.addEnvironment(name, value);
    }
    for (const fn of props.clearingFunctions) fn.addEnvironment("PUSH_NOTIFICATION_BOUNCER_URL", props.bouncerUrl);
    this.schedule = new DailyJob(this, "Upload", {
      queue: props.queue,
      job: PUSH_BOUNCER_UPDATE_JOB,
      description: "Daily upload of the organizations and their user counts to the push notification service",
      hour: 4,
      minute: 23,
    });
    new CfnOutput(scope, "PushNotificationBouncerUrl", {
      value: props.bouncerUrl,
      description: "PUSH_NOTIFICATION_BOUNCER_URL: Zulip's push notification service",
    });
    new CfnOutput(scope, "PushNotificationsSecretArn", {
      value: this.secret.secretArn,
      description: "Secret holding zulip_org_id and zulip_org_key (read by npm run manage)",
    });
  }
}
