/**
 * What the Lambda bundles get for `@aws-sdk/credential-provider-node`
 * (esbuild's `alias`, infra/bundling.ts): the SDK clients' default
 * credentials, read from the environment only.
 *
 * Lambda hands a function its role's credentials in `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, the first source the
 * SDK's default chain tries; the rest of the chain (SSO, STS web identity,
 * profiles, instance metadata, with the nested STS/SSO clients they use) is
 * about 130 KB of every bundle that a Lambda never runs. Bundling only: the
 * local server and the tests use the SDK's full chain.
 *
 * @see https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
 */
import { fromEnv } from "@aws-sdk/credential-provider-env";

/** The SDK's `defaultProvider(init)`, reduced to {@link fromEnv}. */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]): ReturnType<typeof fromEnv> => fromEnv(init);
