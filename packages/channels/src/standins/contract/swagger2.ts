// Amazon publishes its SP-API models as Swagger 2.0; openapi-backend reads OpenAPI 3. This turns
// one such document into OpenAPI 3.0 in place (used as the contract's overlay): definitions become
// components, body parameters a JSON request body, other parameters keep their schema under
// `schema` (csv arrays as form style without explode). Only what request checks read is carried.
type Json = Record<string, unknown>;

/** A parameter: Swagger 2's as read, OpenAPI 3's once converted. */
interface Parameter extends Json {
  in?: string;
}

/** An operation, as far as the conversion reads it. */
interface Operation extends Json {
  parameters?: Parameter[];
  consumes?: string[];
  responses?: Record<string, Json>;
}

/** A Swagger 2.0 document, as far as the conversion reads it. */
interface Swagger2Document extends Json {
  consumes?: string[];
  /** Each path's operations by method, and the parameters they share. */
  paths?: Record<string, Json>;
}

const PARAMETER_KEYS = ["name", "in", "required", "description"];
const SCHEMA_KEYS = [
  "type",
  "items",
  "enum",
  "default",
  "format",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
];

function rewriteRefs(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(rewriteRefs);
  if (!node || typeof node !== "object") return;
  const object = node as Json;
  if (typeof object.$ref === "string")
    object.$ref = object.$ref.replace(/^#\/definitions\//, "#/components/schemas/");
  Object.values(object).forEach(rewriteRefs);
}

function parameter(p: Parameter): Parameter {
  const out: Parameter = Object.fromEntries(
    PARAMETER_KEYS.filter((k) => k in p).map((k) => [k, p[k]]),
  );
  out.schema = Object.fromEntries(SCHEMA_KEYS.filter((k) => k in p).map((k) => [k, p[k]]));
  if (p.type === "array")
    Object.assign(out, { style: "form", explode: p.collectionFormat === "multi" });
  return out;
}

export function swagger2ToOpenApi3(document: Swagger2Document): void {
  if (document.swagger !== "2.0") return;
  const consumes = document.consumes ?? ["application/json"];
  for (const operations of Object.values(document.paths ?? {})) {
    const shared = (operations.parameters ?? []) as Parameter[];
    delete operations.parameters;
    for (const operation of Object.values(operations) as Operation[]) {
      const all = [...shared, ...(operation.parameters ?? [])];
      const body = all.find((p) => p.in === "body");
      operation.parameters = all
        .filter((p) => p.in !== "body" && p.in !== "formData")
        .map(parameter);
      if (body) {
        const types = operation.consumes ?? consumes;
        operation.requestBody = {
          required: !!body.required,
          content: Object.fromEntries(types.map((t) => [t, { schema: body.schema }])),
        };
      }
      for (const response of Object.values(operation.responses ?? {})) {
        if (response.schema) response.content = { "application/json": { schema: response.schema } };
        delete response.schema;
        delete response.headers;
        delete response.examples;
      }
      delete operation.consumes;
      delete operation.produces;
    }
  }
  document.components = { schemas: document.definitions ?? {} };
  for (const key of [
    "swagger",
    "definitions",
    "host",
    "basePath",
    "schemes",
    "consumes",
    "produces",
    "securityDefinitions",
    "parameters",
    "responses",
  ])
    delete document[key];
  document.openapi = "3.0.3";
  rewriteRefs(document);
}
