// The channels' configuration from an environment, as the config package reads it (defaults, text
// converted), for tests of this package, which cannot depend on @catalog/config (it depends on us).
import type { Static } from "typebox";
import { Value } from "typebox/value";
import type { SharedChannelsEnvSchema } from "../src/index.js";
import {
  CHANNEL_DEFINITIONS,
  channelsConfig,
  channelsEnvSchema,
  type AnyChannelDefinition,
  type ChannelsConfig,
} from "../src/index.js";

export function channelsConfigFrom(
  env: Record<string, string | undefined>,
  definitions: readonly AnyChannelDefinition[] = CHANNEL_DEFINITIONS,
): ChannelsConfig {
  const schema = channelsEnvSchema(definitions);
  const given = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => value && name in schema.properties),
  );
  const value = Value.Convert(schema, Value.Default(schema, given));
  if (!Value.Check(schema, value))
    throw new Error(
      `bad channel variables: ${[...Value.Errors(schema, value)].map((e) => `${e.instancePath} ${e.message}`).join("; ")}`,
    );
  return channelsConfig(value as Static<typeof SharedChannelsEnvSchema>, definitions);
}
