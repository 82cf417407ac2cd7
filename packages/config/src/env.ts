import { Type, type Static, type TSchema } from "typebox";
import { Value } from "typebox/value";

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads `schema` from an environment-like object: converts strings to the schema's types,
 * applies defaults and refuses anything invalid with one message naming every bad variable.
 */
export function readEnv<T extends TSchema>(
  schema: T,
  env: Record<string, string | undefined>,
): Static<T> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys((schema as unknown as { properties: object }).properties)) {
    const raw = env[key];
    if (raw !== undefined && raw !== "") picked[key] = raw;
  }
  const value = Value.Convert(schema, Value.Default(schema, picked));
  const errors = [...Value.Errors(schema, value)];
  if (errors.length > 0) {
    const byVariable = new Map<string, string>();
    for (const e of errors) {
      const name = e.instancePath.replace(/^\//, "") || "(root)";
      if (!byVariable.has(name)) byVariable.set(name, `${name}: ${e.message}`);
    }
    throw new ConfigError(`Invalid configuration: ${[...byVariable.values()].join("; ")}`);
  }
  return value as Static<T>;
}

export const Bool = (defaultValue: boolean) => Type.Boolean({ default: defaultValue });
export const Int = (defaultValue: number, minimum = 0, maximum = Number.MAX_SAFE_INTEGER) =>
  Type.Integer({ default: defaultValue, minimum, maximum });
export const Str = (defaultValue: string) => Type.String({ default: defaultValue, minLength: 1 });
