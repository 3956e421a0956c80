import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { SWEEP_UNCLAIMED_ATTACHMENTS_JOB } from "../../shared/actions/uploads/sweep.js";

/**
 * The daily sweep of uploads no message claimed (Zulip runs
 * `delete_old_unclaimed_attachments` from cron): an EventBridge rule that
 * puts one `sweep_unclaimed_attachments` job on the deferred-work queue at
 * 03:47 UTC, run by the worker Lambda like every other job, the same way as
 * the demo-organization sweep. A missed day only delays deletions.
 */
export class UnclaimedAttachmentSweep extends Construct {
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: { queue: sqs.IQueue }) {
    super(scope, id);
    this.rule = new events.Rule(this, "Daily", {
      description: "Daily sweep deleting uploads no message has claimed for five weeks",
      schedule: events.Schedule.cron({ minute: "47", hour: "3" }),
      targets: [
        new targets.SqsQueue(props.queue, { message: events.RuleTargetInput.fromObject(SWEEP_UNCLAIMED_ATTACHMENTS_JOB) }),
      ],
    });
  }
}
