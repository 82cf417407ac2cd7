// The catalog product as channel adapters take it: one mapping, shared with the gateway's dry run.
export { toPublishable } from "@catalog/channels";
