// The channels' part of an app's configuration: the variables every channel shares, then each
// channel's own (from its definition's `env`), and what each channel's adapter and connect flow
// are built with (its definition's `app`). The config package merges the schema into the
// gateway's and the publish worker's and checks the environment against it.
import { Type, type Static, type TObject, type TProperties } from "typebox";
import type { AnyChannelDefinition } from "./channel-definition.js";
import { envText, trimSlash } from "./channel-env.js";
import { CHANNEL_DEFINITIONS } from "./channel-list.js";

export const SharedChannelsEnvSchema = Type.Object({
  /**
   * Where browsers reach the gateway; the channels redirect back to
   * `<PUBLIC_URL>/api/integrations/<channel>/callback`.
   */
  PUBLIC_URL: envText("http://127.0.0.1:3000"),
  /**
   * Allow store URLs on private or loopback addresses (WooCommerce stores in development and
   * tests).
   */
  CHANNEL_PRIVATE_URLS: Type.Boolean({ default: false }),
});

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  i: infer I,
) => void
  ? I
  : never;
type EnvPropertiesOf<D> = D extends { env: TObject<infer P> } ? P : never;

/** The shared variables and every listed channel's, as one object of properties. */
export type ChannelsEnvProperties<Defs extends readonly AnyChannelDefinition[]> =
  (typeof SharedChannelsEnvSchema)["properties"] &
    UnionToIntersection<EnvPropertiesOf<Defs[number]>>;

/**
 * One schema of the shared variables and every channel's; two channels may not claim one variable.
 */
export function channelsEnvSchema<const Defs extends readonly AnyChannelDefinition[]>(
  definitions: Defs,
): TObject<ChannelsEnvProperties<Defs>> {
  const properties: TProperties = { ...SharedChannelsEnvSchema.properties };
  for (const definition of definitions) {
    for (const [name, schema] of Object.entries(definition.env.properties)) {
      if (name in properties)
        throw new Error(`channel ${definition.name} declares ${name}, which is already declared`);
      properties[name] = schema;
    }
  }
  return Type.Object(properties) as TObject<ChannelsEnvProperties<Defs>>;
}

/**
 * What the listed channels are built with: the shared values and each channel's own part, by
 * channel name.
 */
export interface ChannelsConfig {
  publicUrl: string;
  allowPrivateStoreUrls: boolean;
  apps: Readonly<Record<string, unknown>>;
}

/** From an environment already checked against channelsEnvSchema(definitions). */
export function channelsConfig(
  env: Static<typeof SharedChannelsEnvSchema> & Record<string, unknown>,
  definitions: readonly AnyChannelDefinition[] = CHANNEL_DEFINITIONS,
): ChannelsConfig {
  return {
    publicUrl: trimSlash(env.PUBLIC_URL),
    allowPrivateStoreUrls: env.CHANNEL_PRIVATE_URLS,
    apps: Object.fromEntries(definitions.map((d) => [d.name, d.app(env)])),
  };
}
