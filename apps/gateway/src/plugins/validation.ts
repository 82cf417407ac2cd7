import type { FastifySchemaCompiler, FastifySchemaValidationError } from "fastify";
import { registerAjvFormats } from "@fastify/type-provider-typebox";
import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import { Value } from "typebox/value";
import { MAX_JSON_DEPTH, describeJsonPath, pathTooDeep, unstorableText } from "@catalog/values";

registerAjvFormats();

const INTEGER = /^[+-]?\d{1,15}$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

type Defaulter = (value: unknown) => unknown;

/** Whether a schema holds a default or a reference below its own top level. */
function defaultsBelow(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  return Object.entries(schema as Record<string, unknown>).some(
    ([word, part]) =>
      word === "$ref" ||
      (typeof part === "object" &&
        part !== null &&
        word !== "default" &&
        (Object.hasOwn(part, "default") || defaultsBelow(part))),
  );
}

/**
 * What `Value.Default(schema, value)` does, worked out once for an object of flat fields (a query
 * string, path or headers): TypeBox's own walks the schema on every request, a few percent of a
 * cached read's CPU. Anything nested keeps TypeBox's.
 */
function defaulter(schema: TSchema): Defaulter {
  const { properties, additionalProperties } = schema as {
    properties?: Record<string, Record<string, unknown>>;
    additionalProperties?: unknown;
  };
  const flat =
    properties !== undefined &&
    !Object.hasOwn(schema, "default") &&
    typeof additionalProperties !== "object" &&
    !Object.values(properties).some(defaultsBelow);
  if (!flat) return (value) => Value.Default(schema, value);
  const defaults = Object.entries(properties)
    .filter(([, field]) => "default" in field)
    .map(([key, field]) => [key, field.default] as const);
  return (value) => {
    if (typeof value !== "object" || value === null) return value;
    const fields = value as Record<string, unknown>;
    for (const [key, fallback] of defaults)
      if (fields[key] === undefined)
        fields[key] =
          typeof fallback === "function"
            ? (fallback as () => unknown)()
            : structuredClone(fallback);
    return fields;
  };
}

/**
 * Text from a query string, path or header, converted only where it is exactly a value of the
 * declared type ("1.5" or "12abc" stay text, so an integer field rejects them).
 */
function fromText(schema: TSchema, input: unknown): unknown {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  if (!properties || typeof input !== "object" || input === null) return input;
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    const type = properties[key]?.type;
    if (typeof value !== "string") continue;
    if (type === "integer" && INTEGER.test(value)) out[key] = Number(value);
    else if (type === "number" && NUMBER.test(value)) out[key] = Number(value);
    else if (type === "boolean" && (value === "true" || value === "false"))
      out[key] = value === "true";
  }
  return out;
}

/**
 * A problem found before TypeBox sees the value, shaped as one of its errors so it is reported
 * alike.
 */
function refusal(path: (string | number)[], message: string): FastifySchemaValidationError[] {
  return [
    {
      keyword: "refused",
      instancePath: path.length > 0 ? `/${path.join("/")}` : "",
      schemaPath: "",
      params: {},
      message,
    },
  ];
}

/**
 * Validates with TypeBox. Query strings, params and headers arrive as text, so they are
 * converted to the schema's types; a JSON body is taken as sent, so a number where a string
 * belongs is an error, never silently coerced. Both get the schema's defaults. First, a value
 * nested too deeply is refused before anything recursive (TypeBox included) walks it, and so is
 * text PostgreSQL cannot store (a NUL character, a lone surrogate), in every part of the request.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const isText = httpPart !== "body";
  const withDefaults = defaulter(schema);
  return (input: unknown) => {
    const deep = pathTooDeep(input);
    if (deep)
      return {
        error: refusal(deep, `is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`),
      };
    const unstorable = unstorableText(input);
    if (unstorable) return { error: refusal(unstorable.path, unstorable.problem) };
    const value = withDefaults(isText ? fromText(schema, input) : input);
    if (check.Check(value)) return { value };
    return { error: check.Errors(value) as unknown as FastifySchemaValidationError[] };
  };
};

const PARTS: Record<string, string> = {
  body: "body",
  querystring: "query",
  params: "path",
  headers: "header",
};

/** "query field "pageSize" must be <= 100": the part of the request, the field and the rule. */
export function describeValidationError(
  context: string | undefined,
  errors: FastifySchemaValidationError[],
): string {
  // TypeBox also reports a rejected extra field as `schema is false`; its additionalProperties
  // entry says more.
  const first = errors.find((e) => e.keyword !== "boolean") ?? errors[0];
  const part = PARTS[context ?? ""] ?? "request";
  if (!first) return `invalid ${part}`;
  const path = describeJsonPath(first.instancePath.split("/").slice(1));
  const params = first.params;
  const join = (extra: unknown) => [path, String(extra)].filter((s) => s.length > 0).join(".");
  if (first.keyword === "required") {
    const missing =
      params.missingProperty ?? (params.requiredProperties as unknown[] | undefined)?.[0];
    return `${part} field "${join(missing)}" is required`;
  }
  if (first.keyword === "additionalProperties") {
    const extra =
      params.additionalProperty ?? (params.additionalProperties as unknown[] | undefined)?.[0];
    return `${part} field "${join(extra)}" is not accepted`;
  }
  // TypeBox says "must be equal to one of the allowed values" without them: name them, so the
  // client can fix the request.
  const allowed =
    first.keyword === "enum" ? (params.allowedValues as unknown[] | undefined) : undefined;
  const rule = allowed ? `must be one of: ${allowed.map(String).join(", ")}` : first.message;
  return path ? `${part} field "${path}" ${rule}` : `${part} ${rule}`;
}
