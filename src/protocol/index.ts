export { limits } from "./limits.js";
export { TargetSchema, ariaRoles, type Target } from "./target.js";
export {
  BrowserCommandSchema,
  commandSchemas,
  commandOps,
  observationOps,
  isObservationCommand,
  requiredTargetOps,
  optionalTargetOps,
  base64DecodedBytes,
  type BrowserCommand,
  type BrowserCommandInput,
  type CommandOf,
  type CommandOp,
} from "./commands.js";
export { parseWith, safeParseWith, formatIssuePath, type SafeParseResult } from "./parse.js";
export { parseCommand, safeParseCommand } from "./parse-command.js";
export { OpenOptionsSchema, type OpenOptions, type ResolvedOpenOptions } from "./open-options.js";
export { assertNavigableUrl, isAllowedNavigationUrl, refusalReason, sanitizeUrl } from "./url-policy.js";

