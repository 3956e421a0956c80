import { Duration, Stack } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as s3 from "aws-cdk-lib/aws-s3";
import * as ses from "aws-cdk-lib/aws-ses";
import * as sesActions from "aws-cdk-lib/aws-ses-actions";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from "aws-cdk-lib/custom-resources";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { INCOMING_EMAIL_PREFIX, INCOMING_EMAIL_RETENTION_DAYS } from "../../shared/actions/email-gateway/process-email.js";
import type { JobOf } from "../../shared/deferred/jobs.js";

export interface MailReceivingProps {
  /** The gateway's domain (`EMAIL_GATEWAY_DOMAIN`): every address `…@<domain>` is received. */
  domain: string;
  /** The files bucket: emails are stored under {@link INCOMING_EMAIL_PREFIX}. */
  bucket: s3.Bucket;
  /** The deferred-work queue the worker consumes. */
  queue: sqs.IQueue;
  /**
   * Make the rule set the region's active one (SES has one active rule set
   * per account and region: activating this one deactivates any other).
   * @default true
   */
  activate: boolean;
}

/**
 * Incoming email for the email gateway (docs/deploying.md, "Incoming
 * email"), with no function of its own:
 *
 * 1. an SES receipt rule set with one rule for the gateway's domain: spam
 *    and virus scanning on, the raw email stored by SES's S3 action in the
 *    files bucket under `incoming-email/` (the action adds the bucket-policy
 *    statement letting SES put objects there, for this account only);
 * 2. the bucket's events sent to EventBridge (S3's own switch, no
 *    notification Lambda), and a rule matching objects created under the
 *    prefix whose input transformer writes the job
 *    `{"kind":"incoming_email","payload":{"key":<object key>}}` onto the
 *    deferred-work queue, where the worker runs it
 *    (`shared/actions/email-gateway/process-email.ts`);
 * 3. a lifecycle rule deleting anything left under the prefix after
 *    {@link INCOMING_EMAIL_RETENTION_DAYS} days (the worker deletes each
 *    email it posted or refused);
 * 4. with `activate`, a custom resource calling SES's
 *    `SetActiveReceiptRuleSet` on create and update (CloudFormation has no
 *    property for it), and deactivating on delete, which SES requires
 *    before the rule set can be deleted.
 *
 * The domain's MX record (`inbound-smtp.<region>.amazonaws.com`) and its
 * SES verification are the operator's (docs/deploying.md).
 */
export class MailReceiving extends Construct {
  readonly ruleSet: ses.ReceiptRuleSet;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: MailReceivingProps) {
    super(scope, id);
    this.ruleSet = new ses.ReceiptRuleSet(this, "RuleSet", {
      rules: [
        {
          recipients: [props.domain],
          scanEnabled: true,
          tlsPolicy: ses.TlsPolicy.OPTIONAL,
          actions: [new sesActions.S3({ bucket: props.bucket, objectKeyPrefix: INCOMING_EMAIL_PREFIX })],
        },
      ],
    });

    // S3 → EventBridge, set on the bucket's own resource: CDK's `eventBridgeEnabled` would add a
    // notification-configuring Lambda. Events of AWS services on the default bus cost nothing.
    const cfnBucket = props.bucket.node.defaultChild as s3.CfnBucket;
    cfnBucket.notificationConfiguration = { eventBridgeConfiguration: { eventBridgeEnabled: true } };
    props.bucket.addLifecycleRule({
      id: "expire-incoming-email",
      prefix: INCOMING_EMAIL_PREFIX,
      expiration: Duration.days(INCOMING_EMAIL_RETENTION_DAYS),
    });

    const job: JobOf<"incoming_email"> = { kind: "incoming_email", payload: { key: events.EventField.fromPath("$.detail.object.key") } };
    this.rule = new events.Rule(this, "Received", {
      description: "An email SES stored for the email gateway becomes an incoming_email job",
      eventPattern: {
        source: ["aws.s3"],
        detailType: ["Object Created"],
        detail: { bucket: { name: [props.bucket.bucketName] }, object: { key: [{ prefix: INCOMING_EMAIL_PREFIX }] } },
      },
      targets: [new targets.SqsQueue(props.queue, { message: events.RuleTargetInput.fromObject(job) })],
    });

    if (props.activate) this.activate();
  }

  /** The custom resource that makes the rule set the active one (see the class's notes). */
  private activate(): void {
    const call = (ruleSetName?: string) => ({
      service: "SES",
      action: "setActiveReceiptRuleSet",
      parameters: ruleSetName === undefined ? {} : { RuleSetName: ruleSetName },
      physicalResourceId: PhysicalResourceId.of(`${Stack.of(this).stackName}-active-receipt-rule-set`),
    });
    const active = new AwsCustomResource(this, "Activate", {
      onCreate: call(this.ruleSet.receiptRuleSetName),
      onUpdate: call(this.ruleSet.receiptRuleSetName),
      onDelete: call(),
      // SetActiveReceiptRuleSet has no resource-level permissions: IAM takes only "*".
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: AwsCustomResourcePolicy.ANY_RESOURCE }),
      installLatestAwsSdk: false,
    });
    active.node.addDependency(this.ruleSet);
    const stack = Stack.of(this);
    NagSuppressions.addResourceSuppressions(
      active,
      [
        {
          id: "AwsSolutions-IAM5",
          reason: "ses:SetActiveReceiptRuleSet supports no resource-level permission; the policy allows that one action only.",
          appliesTo: ["Resource::*"],
        },
      ],
      true,
    );
    // The provider function CDK shares across the stack's AwsCustomResources (one per stack).
    const provider = stack.node.tryFindChild("AWS679f53fac002430cb0da5b7982bd2287");
    if (provider) {
      NagSuppressions.addResourceSuppressions(
        provider,
        [
          {
            id: "AwsSolutions-IAM4",
            reason:
              "CDK's custom-resource provider writes its logs with AWSLambdaBasicExecutionRole; it runs once per deploy " +
              "to switch the active SES rule set and holds no data.",
            appliesTo: ["Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"],
          },
          {
            id: "AwsSolutions-L1",
            reason: "The runtime of CDK's custom-resource provider is chosen by aws-cdk-lib and moves with its upgrades.",
          },
        ],
        true,
      );
    }
  }
}
