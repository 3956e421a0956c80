// zulip-js ships no type declarations; tests use it untyped.
declare module "zulip-js" {
  const zulipInit: (config: Record<string, unknown>) => Promise<any>;
  export default zulipInit;
}
