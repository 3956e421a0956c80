import type middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { Logger } from "../../logger.js";
import type { ApiContext } from "../context.js";

/** Lambda context extended with the request's {@link ApiContext} once it is built. */
export interface ApiLambdaContext extends Context {
  api?: ApiContext;
  /** The request's logger (request ID, route, realm and user on every line), set first in the chain. */
  log?: Logger;
}

export type ApiRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiLambdaContext>;
export type ApiMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  ApiLambdaContext
>;
