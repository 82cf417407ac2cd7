// Retention (issue 32): what the record stops keeping, and when. A subpath of its own
// (`@catalog/db/retention`) so that the import worker, which runs the periodic pass, loads
// node-postgres and this, not the Prisma client or the rest of the data layer.
export { retentionPolicyOf, type RetentionPolicy } from "./policy.js";
export {
  runRetentionPass,
  type RetentionOutcome,
  type RetentionPassOptions,
  type RetentionRemoved,
} from "./retention-pass.js";
