/**
 * The layering of the code, checked by dependency-cruiser in `npm test`
 * (`npm run check:layers`). Imports run one way, from the top layer down:
 * a module may import its own layer's modules and those of any layer below,
 * never one above. docs/architecture.md explains each layer.
 *
 * Type-only imports count too: a layer that names another's types depends on it.
 */

/** Top to bottom. Each entry: a name for messages, and the paths (regular expressions) it holds. */
const LAYERS = [
  { name: "scripts", paths: ["^scripts/"] },
  { name: "infra", paths: ["^infra/"] },
  { name: "functions", paths: ["^functions/"] },
  { name: "actions", paths: ["^shared/actions/"] },
  { name: "queries", paths: ["^shared/queries/"] },
  // Below what it must never call: middleware parses, authenticates and renders; it runs no action or query.
  { name: "http", paths: ["^shared/http/"] },
  { name: "access", paths: ["^shared/access/", "^shared/auth/"] },
  { name: "events", paths: ["^shared/events/"] },
  { name: "narrow-wire", paths: ["^shared/narrow/", "^shared/wire/"] },
  { name: "domain", paths: ["^shared/domain/", "^shared/integrations/"] },
  { name: "deps", paths: ["^shared/deps\\.ts$"] },
  { name: "data", paths: ["^shared/data/", "^shared/deferred/", "^shared/storage/", "^shared/mail/", "^shared/push/"] },
  {
    name: "leaves",
    paths: [
      "^shared/(config|logger|errors|version|routes|routing|route-match|html)\\.ts$",
      "^shared/emoji/",
      "^shared/markdown/",
      "^shared/images/",
    ],
  },
];

const anyOf = (paths) => `(${paths.join("|")})`;

/** One rule per layer: nothing in it imports a layer above it. */
const layerRules = LAYERS.map((layer, i) => {
  const above = LAYERS.slice(0, i).flatMap((l) => l.paths);
  return above.length === 0
    ? null
    : {
        name: `layer-${layer.name}-imports-only-below`,
        comment: `${layer.name} may import only ${LAYERS.slice(i + 1).map((l) => l.name).join(", ")} (and itself): imports run one way, down (docs/architecture.md)`,
        severity: "error",
        from: { path: anyOf(layer.paths) },
        to: { path: anyOf(above) },
      };
}).filter(Boolean);

/** Sibling areas within one layer stay apart where the order between them matters. */
const siblingRules = [
  {
    name: "narrow-and-wire-stay-apart",
    comment: "narrow/ (message filters and plans) and wire/ (wire shapes) do not import each other",
    severity: "error",
    from: { path: "^shared/narrow/" },
    to: { path: "^shared/wire/" },
  },
  {
    name: "narrow-and-wire-stay-apart-2",
    comment: "narrow/ (message filters and plans) and wire/ (wire shapes) do not import each other",
    severity: "error",
    from: { path: "^shared/wire/" },
    to: { path: "^shared/narrow/" },
  },
  {
    name: "http-serves-functions-only",
    comment:
      "shared/http/ (middleware, parameter parsing, envelopes) is for the endpoints in functions/: actions and queries below it know nothing of HTTP",
    severity: "error",
    from: { path: "^shared/", pathNot: "^shared/http/" },
    to: { path: "^shared/http/" },
  },
  {
    name: "leaves-import-no-project-layer",
    comment: "a leaf (config, logger, errors, version, routes, routing, route-match, html, emoji, markdown, images) imports only other leaves",
    severity: "error",
    from: { path: anyOf(LAYERS.at(-1).paths) },
    to: { path: "^(shared|functions|infra|scripts)/", pathNot: anyOf(LAYERS.at(-1).paths) },
  },
];

/**
 * Folders stay apart the way layers do. Every folder's imports, summed over
 * its files, form a graph between folders (a file counts for its own folder
 * and each folder above it); that graph has no cycle, so within a layer one
 * of two folders is below the other (shared/actions/messages may import
 * shared/actions/uploads, or the reverse, never both, not even through a
 * third folder). Shared needs move down a layer, or to a folder both import.
 */
const folderRules = [
  {
    name: "no-folder-cycles",
    comment:
      "no two folders import each other, directly or through other folders: move what both need down a layer or to a folder both may import (docs/architecture.md)",
    severity: "error",
    scope: "folder",
    from: {},
    to: { circular: true },
  },
  {
    name: "endpoint-folders-stay-apart",
    comment:
      "a functions/<domain>/ folder holds endpoints and their parameter specs and imports no other functions/ folder: what two share moves down (shared/http/ for parameter specs); only the Lambda entries (functions/lambdas/, generated from the route table) gather endpoints of several folders",
    severity: "error",
    from: { path: "^functions/([^/]+)/", pathNot: "^functions/lambdas/" },
    to: { path: "^functions/", pathNot: "^functions/$1/" },
  },
];

module.exports = {
  forbidden: [
    ...layerRules,
    ...siblingRules,
    ...folderRules,
    {
      name: "only-data-speaks-dynamodb",
      comment:
        "only shared/data/ imports the DynamoDB client and its commands; everything else calls the entities' named access patterns",
      severity: "error",
      // The bench measures DynamoDB Local's own raw rates (scripts/bench/raw.ts), for scale.
      from: { pathNot: "^(shared/data/|scripts/bench/raw\\.ts$)" },
      to: { path: "node_modules/@aws-sdk/(client-dynamodb|lib-dynamodb)/" },
    },
    {
      name: "only-data-builds-keys",
      comment: "only shared/data/ imports the key builders (keys.ts): entities own their keys and indexes",
      severity: "error",
      from: { pathNot: "^shared/data/" },
      to: { path: "^shared/data/keys\\.ts$" },
    },
    {
      name: "only-data-and-infra-read-the-table-layout",
      comment: "the table layout (shared/data/table.ts) is read by the data layer and by the CDK stack that creates the table",
      severity: "error",
      from: { pathNot: "^(shared/data/|infra/constructs/)" },
      to: { path: "^shared/data/table\\.ts$" },
    },
    {
      name: "only-deferred-speaks-sqs",
      comment: "only shared/deferred/ (the deferred-work queue) and the local SQS emulator import the SQS client",
      severity: "error",
      from: { pathNot: "^(shared/deferred/|infra/local/sqs-local\\.ts$)" },
      to: { path: "node_modules/@aws-sdk/client-sqs/" },
    },
    {
      name: "only-storage-speaks-s3",
      comment:
        "only shared/storage/ (the file store, S3 requests signed by aws4fetch) and the local emulator (the S3 client) speak S3; " +
        "aws4fetch also signs the CLI's one Secrets Manager read (scripts/push-secret.ts)",
      severity: "error",
      from: { pathNot: "^(shared/storage/|infra/local/|scripts/push-secret\\.ts$)" },
      to: { path: "node_modules/(@aws-sdk/client-s3|aws4fetch)/" },
    },
    {
      name: "only-mail-speaks-ses-and-mime",
      comment: "only shared/mail/ sends mail (SES v2, nodemailer's MIME writer) and reads it (postal-mime)",
      severity: "error",
      from: { pathNot: "^shared/mail/" },
      to: { path: "node_modules/(@aws-sdk/client-sesv2|nodemailer|postal-mime)/" },
    },
    {
      name: "only-images-speak-sharp",
      comment: "only shared/images/ decodes and resizes images (sharp is a native module, external to the bundles)",
      severity: "error",
      from: { pathNot: "^shared/images/" },
      to: { path: "node_modules/sharp/" },
    },
    {
      name: "web-runs-none-of-the-server",
      comment:
        "the web app (web/) imports the server's modules for their types only (import type): none of the server's code runs in the browser",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(shared|functions|infra|scripts)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "web-reads-wire-shapes-only",
      comment: "the web app names the server's wire shapes (shared/wire/, shared/events/, shared/narrow/) and nothing else of it",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(shared|functions|infra|scripts)/", pathNot: "^shared/(wire|events|narrow)/" },
    },
    {
      name: "server-imports-no-web",
      comment: "the server does not import the web app: the web Lambda serves web/dist as files",
      severity: "error",
      from: { path: "^(shared|functions|infra|scripts)/" },
      to: { path: "^web/" },
    },
    {
      name: "no-circular",
      comment: "no module depends on itself through others",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^test/|\\.test\\.ts$|\\.d\\.ts$)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".json"],
    },
  },
};
