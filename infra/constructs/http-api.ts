import { RemovalPolicy, Stack } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import * as apigw from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as acm from "aws-cdk-lib/aws-certificatemanager";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { ROUTES, type Group } from "../../shared/routes.js";

export interface CustomDomainOptions {
  /** The organization's root domain, e.g. `chat.example.com`. */
  rootDomain: string;
  /** ACM certificate (same region as the stack) covering `rootDomain`, and `*.rootDomain` when `orgSubdomains`. */
  certificateArn: string;
  /** Also serve `<subdomain>.<rootDomain>` for organizations other than the default one. */
  orgSubdomains: boolean;
}

export interface ChatApiProps {
  /** The Lambda of each endpoint group. */
  groupFunctions: Record<Group, lambda.IFunction>;
  /** Serves requests no route matches (404 / 405 with Zulip's envelope). */
  fallbackFunction: lambda.IFunction;
  /** Steady-state requests per second for the whole stage. */
  rateLimit: number;
  /** Burst capacity in requests. */
  burstLimit: number;
  removalPolicy: RemovalPolicy;
  /** Custom domain names; without them the API answers on its execute-api host only. */
  customDomain?: CustomDomainOptions;
}

/**
 * The HTTP API (API Gateway v2): one route per entry of the route table
 * `shared/routes.ts`, each a Lambda proxy integration (payload format 2.0)
 * with the Lambda of the entry's group, and the `$default` route to the
 * fallback Lambda, which answers Zulip's 404 / 405.
 *
 * Routes are explicit rather than one `ANY /{proxy+}`: each request's
 * `routeKey` names its endpoint (the Lambda does no path matching), access
 * logs show the route, and a request only reaches its own group's Lambda.
 *
 * No API Gateway authorizer: Zulip clients send HTTP Basic credentials (an
 * email and an API key), which the Lambdas check against the table.
 */
export class ChatApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;
  /** The host clients reach without a custom domain: `<api-id>.execute-api.<region>.<suffix>`. */
  readonly executeApiHost: string;
  /** The custom domains created, to point DNS at. */
  readonly domainNames: apigw.DomainName[] = [];
  /**
   * The host names of {@link domainNames}, in the same order, as literal
   * strings (`DomainName.name` is a reference, which CloudFormation refuses
   * in an output's description).
   */
  readonly domainHosts: string[] = [];

  constructor(scope: Construct, id: string, props: ChatApiProps) {
    super(scope, id);
    this.api = new apigw.HttpApi(this, "HttpApi", {
      description: "Zulip-compatible chat API",
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration("FallbackIntegration", props.fallbackFunction),
    });

    this.accessLogs = new logs.LogGroup(this, "AccessLogs", {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy,
    });
    this.stage = this.api.addStage("DefaultStage", {
      // `$default` has no path prefix: clients see `/api/v1/...` at the root, as on a Zulip server.
      stageName: "$default",
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit, burstLimit: props.burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        // One JSON object per request; no query strings or headers, which may carry credentials.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: "$context.requestId",
            ip: "$context.identity.sourceIp",
            time: "$context.requestTimeEpoch",
            routeKey: "$context.routeKey",
            method: "$context.httpMethod",
            path: "$context.path",
            status: "$context.status",
            responseLength: "$context.responseLength",
            latencyMs: "$context.responseLatency",
            integrationLatencyMs: "$context.integrationLatency",
            integrationError: "$context.integrationErrorMessage",
            userAgent: "$context.identity.userAgent",
          }),
        ),
      },
    });
    const stack = Stack.of(this);
    this.executeApiHost = `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;

    // One integration per group, shared by the group's routes; one invoke
    // permission per function instead of one per route keeps the Lambda
    // resource policies (20 KB each) and the template (500 resources) small.
    const integrations = new Map<Group, HttpLambdaIntegration>();
    const integrationOf = (group: Group) => {
      let integration = integrations.get(group);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${group}Integration`, props.groupFunctions[group], {
          payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
          scopePermissionToRoute: false,
        });
        integrations.set(group, integration);
      }
      return integration;
    };
    for (const route of ROUTES) {
      this.api.addRoutes({
        path: route.prefix + route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: integrationOf(route.group),
      });
    }

    if (props.customDomain) this.addCustomDomains(props.customDomain);
  }

  /** Custom domain names mapped to the `$default` stage; DNS records are left to the operator. */
  private addCustomDomains(options: CustomDomainOptions): void {
    const certificate = acm.Certificate.fromCertificateArn(this, "Certificate", options.certificateArn);
    const names = options.orgSubdomains ? [options.rootDomain, `*.${options.rootDomain}`] : [options.rootDomain];
    names.forEach((name, i) => {
      const domainName = new apigw.DomainName(this, i === 0 ? "RootDomain" : "OrgSubdomains", {
        domainName: name,
        certificate,
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      });
      new apigw.ApiMapping(this, i === 0 ? "RootDomainMapping" : "OrgSubdomainsMapping", {
        api: this.api,
        domainName,
        stage: this.stage,
      });
      this.domainNames.push(domainName);
      this.domainHosts.push(name);
    });
  }
}
