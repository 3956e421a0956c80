import type middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { ApiContext } from "../context.js";

/** Lambda context extended with the request's {@link ApiContext} once it is built. */
export interface ApiLambdaContext extends Context {
  api?: ApiContext;
}

export type ApiRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiLambdaContext>;
export type ApiMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  ApiLambdaContext
>;
