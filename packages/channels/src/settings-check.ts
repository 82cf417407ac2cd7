// A destination's settings checked against its channel's schema: one problem per setting, each
// starting with the setting's name, so the gateway's 422 and a publish's give-up both say which
// one to fix and a form can put each message beside its field.
import type { Static, TObject, TSchema } from "typebox";
import { Value } from "typebox/value";

interface Described {
  type?: string;
  minimum?: number;
  pattern?: string;
  anyOf?: { const?: unknown }[];
  enum?: unknown[];
}

/** What a value of `schema` looks like, in words ("a positive integer", "one of a, b"). */
function expected(schema: Described): string {
  const choices =
    schema.enum ??
    (schema.anyOf?.every((s) => "const" in s) ? schema.anyOf.map((s) => s.const) : null);
  if (choices) return `one of ${choices.join(", ")}`;
  if (schema.type === "integer") return schema.minimum === 1 ? "a positive integer" : "an integer";
  if (schema.type === "number") return "a number";
  if (schema.type === "boolean") return "true or false";
  return "a non-empty text";
}

/**
 * The settings as the channel reads them (numbers given as text converted, defaults filled in)
 * with the problems found: none means publishing can start.
 */
export function checkSettings(
  schema: TObject,
  settings: Record<string, unknown>,
): { value: Static<TObject>; problems: string[] } {
  const value = Value.Convert(schema, Value.Default(schema, Value.Clone(settings))) as Record<
    string,
    unknown
  >;
  const properties = schema.properties as Record<string, TSchema & Described>;
  const problems = new Map<string, string>();
  for (const error of Value.Errors(schema, value)) {
    const names =
      error.keyword === "required"
        ? error.params.requiredProperties
        : [error.instancePath.split("/")[1] ?? ""];
    for (const name of names) {
      const property = properties[name];
      if (!property || problems.has(name)) continue;
      // The form shows each field's description beside it; the message only says what is wrong.
      problems.set(
        name,
        error.keyword === "required"
          ? `${name} is required`
          : `${name} must be ${expected(property)}, not ${JSON.stringify(value[name])}`,
      );
    }
  }
  // The schema's order, so messages follow the form.
  const ordered = Object.keys(properties).flatMap((name) => problems.get(name) ?? []);
  return { value, problems: ordered };
}
