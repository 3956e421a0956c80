import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";

/**
 * The deferred job the schedule enqueues: the worker's `sweep_demo_organizations`
 * kind (functions/worker/jobs.ts), which runs `doDeleteExpiredDemoOrganizations`.
 */
export const DEMO_SWEEP_JOB = { kind: "sweep_demo_organizations", payload: {} } as const;

/**
 * The daily sweep of expired demo organizations: an EventBridge rule that
 * puts one {@link DEMO_SWEEP_JOB} on the deferred-work queue at 03:17 UTC,
 * so the worker Lambda that runs every other job runs the sweep (and the
 * `delete_realm` jobs it starts). No extra function and no new permission
 * for any function: the queue's resource policy lets EventBridge send to it
 * only on behalf of this rule (`aws:SourceArn`). A missed day only delays
 * the deletion: the sweep deletes every organization due by then.
 */
export class DemoOrganizationSweep extends Construct {
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: { queue: sqs.IQueue }) {
    super(scope, id);
    this.rule = new events.Rule(this, "Daily", {
      description: "Daily sweep deleting demo organizations past their scheduled deletion date",
      schedule: events.Schedule.cron({ minute: "17", hour: "3" }),
      targets: [new targets.SqsQueue(props.queue, { message: events.RuleTargetInput.fromObject(DEMO_SWEEP_JOB) })],
    });
  }
}
