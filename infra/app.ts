#!/usr/bin/env node
import { App, Aspects } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { ZulipStack } from "./stack.js";

/**
 * The CDK app (`cdk.json` runs it with tsx). One env-agnostic stack, named
 * by context `stackName` (default `Zulip`) so that a dev stack can sit next
 * to production in one account. cdk-nag's AWS Solutions rules run on every
 * synth: an unsuppressed finding fails it.
 */
const app = new App();
const stackName = (app.node.tryGetContext("stackName") as string | undefined) || "Zulip";
new ZulipStack(app, stackName);
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
app.synth();
