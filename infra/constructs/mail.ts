import { CfnOutput, Stack, type RemovalPolicy } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import * as iam from "aws-cdk-lib/aws-iam";
import * as ses from "aws-cdk-lib/aws-ses";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";

export interface MailSendingProps {
  /** The domain mail is sent from, verified in SES by DKIM (`email.domain` of the settings). */
  domain: string;
  /** The sender address (`EMAIL_FROM`), at `domain`. */
  fromAddress: string;
  /** The deferred-work queue the worker consumes: bounces and complaints arrive there as `ses_feedback` jobs. */
  queue: sqs.IQueue;
  /** RETAIN for real deployments: deleting the identity would unverify the domain. */
  removalPolicy: RemovalPolicy;
}

/** SES's EventBridge detail types of the two events the server acts on, and what each becomes. */
const FEEDBACK = [
  { id: "Bounces", detailType: "Email Bounced", eventType: "Bounce", recipients: "$.detail.bounce.bouncedRecipients", bounceType: "$.detail.bounce.bounceType" },
  { id: "Complaints", detailType: "Email Complaint Received", eventType: "Complaint", recipients: "$.detail.complaint.complainedRecipients" },
] as const;

/**
 * Sending mail with Amazon SES (docs/deploying.md, "Email"): the domain's
 * email identity with Easy DKIM (2048-bit keys; the three CNAME records to
 * publish are stack outputs), a configuration set, and the feedback path:
 * the configuration set publishes bounces and complaints to the default
 * EventBridge bus (the only bus SES publishes to), where one rule per event
 * type, matching this configuration set's events only, puts an
 * `ses_feedback` job on the deferred-work queue. The rule's input
 * transformer builds the job's JSON itself
 * (`{"kind":"ses_feedback","payload":{"event_type":…,"bounce_type":…,"recipients":[…]}}`),
 * so no function runs between SES and the worker; the recipients are
 * SES's recipient objects, which the job schema reduces to their addresses
 * (`shared/deferred/jobs.ts`). The queue's resource policy lets EventBridge
 * send only on behalf of these rules, as for the daily jobs.
 *
 * The configuration set also keeps SES's own suppression list for bounces
 * and complaints: a send SES suppresses comes back as a permanent bounce,
 * which the server's list records (`shared/actions/mail/feedback.ts`).
 */
export class MailSending extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly configurationSet: ses.ConfigurationSet;
  /** The feedback rules: bounces, then complaints. */
  readonly rules: events.Rule[];
  /** The configuration set's ARN, for the sending grant. */
  readonly configurationSetArn: string;

  constructor(scope: Construct, id: string, props: MailSendingProps) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, "ConfigurationSet", {
      reputationMetrics: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.applyRemovalPolicy(props.removalPolicy);
    this.identity = new ses.EmailIdentity(this, "Identity", {
      identity: ses.Identity.domain(props.domain),
      dkimIdentity: ses.DkimIdentity.easyDkim(ses.EasyDkimSigningKeyLength.RSA_2048_BIT),
      // Sends that name no configuration set still publish their feedback.
      configurationSet: this.configurationSet,
    });
    this.identity.applyRemovalPolicy(props.removalPolicy);
    this.configurationSetArn = Stack.of(this).formatArn({
      service: "ses",
      resource: "configuration-set",
      resourceName: this.configurationSet.configurationSetName,
    });

    const defaultBus = events.EventBus.fromEventBusName(this, "DefaultBus", "default");
    this.configurationSet.addEventDestination("Feedback", {
      destination: ses.EventDestination.eventBus(defaultBus),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
    this.rules = FEEDBACK.map(
      (kind) =>
        new events.Rule(this, kind.id, {
          description: `SES ${kind.eventType.toLowerCase()}s of this stack's configuration set, as ses_feedback jobs for the worker`,
          eventPattern: {
            source: ["aws.ses"],
            detailType: [kind.detailType],
            // Other stacks or tools of the account send through SES too: only this configuration set's events.
            detail: { mail: { tags: { "ses:configuration-set": [this.configurationSet.configurationSetName] } } },
          },
          targets: [
            new targets.SqsQueue(props.queue, {
              // EventField placeholders are unquoted: EventBridge inserts each value as JSON (a string, an array).
              message: events.RuleTargetInput.fromObject({
                kind: "ses_feedback",
                payload: {
                  event_type: kind.eventType,
                  ...("bounceType" in kind ? { bounce_type: events.EventField.fromPath(kind.bounceType) } : {}),
                  recipients: events.EventField.fromPath(kind.recipients),
                },
              }),
            }),
          ],
        }),
    );

    // Outputs under fixed names (`MailDkimRecord1`…), as docs/deploying.md ("Email") shows them.
    const output = (name: string, value: string, description: string) =>
      new CfnOutput(this, `${name}Output`, { value, description }).overrideLogicalId(`Mail${name}`);
    output("From", props.fromAddress, "EMAIL_FROM: the address mail is sent from");
    output("ConfigurationSet", this.configurationSet.configurationSetName, "SES configuration set (SES_CONFIGURATION_SET)");
    this.identity.dkimRecords.forEach((record, i) => {
      output(
        `DkimRecord${i + 1}`,
        `${record.name} CNAME ${record.value}`,
        `DKIM record ${i + 1} of 3 to publish in ${props.domain}'s DNS (docs/deploying.md, "Email")`,
      );
    });
  }

  /**
   * Lets a function send mail (`ses:SendEmail`; `ses:SendRawEmail` for
   * SES's v1 API) as the identity through the configuration set: SES
   * authorizes a send against both. Nothing else of SES.
   */
  grantSend(grantee: iam.IGrantable): void {
    iam.Grant.addToPrincipal({
      grantee,
      actions: ["ses:SendEmail", "ses:SendRawEmail"],
      resourceArns: [this.identity.emailIdentityArn, this.configurationSetArn],
    });
  }
}
