import { readFile } from "node:fs/promises";
import { OpenAPIBackend } from "openapi-backend";
import { parse as parseYaml } from "yaml";

/** A request as a stand-in received it; `body` already parsed (JSON, or form fields as strings). */
export interface ContractRequest {
  method: string;
  /** The path as sent, starting at the API root (for eBay: /sell/inventory/v1/...). */
  path: string;
  query: Record<string, string | string[]>;
  /**
   * Lower-case names. A `content-type` of application/x-www-form-urlencoded or multipart/form-data
   * marks `body` as form fields (strings; a file as any string).
   */
  headers: Record<string, string>;
  body?: unknown;
}

export interface OpenApiContract {
  /** The problems of one request; empty when the contract allows it. */
  check(request: ContractRequest): string[];
}

export interface OpenApiContractOptions {
  /** Where the spec's paths start (eBay: /sell/inventory/v1). */
  apiRoot?: string;
  /** Known defects of a published file, mended before validating (eBay's `Product.aspects`). */
  overlay?: (document: Record<string, unknown>) => void;
}

/** A JSON Schema, as far as form coercion reads it. */
interface Schema {
  type?: unknown;
  items?: Schema;
  properties?: Record<string, Schema | undefined>;
  [keyword: string]: unknown;
}

/** An operation's request body, as far as form coercion reads it. */
interface OperationBody {
  requestBody?: { content?: Record<string, { schema?: Schema } | undefined> };
}

/**
 * The one normalisation the published files need before ajv compiles them: `nullable` without a
 * `type` (Etsy) is meaningless in OpenAPI 3.0 and ajv refuses it, so it is dropped.
 */
function normalise(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(normalise);
  if (!node || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if ("nullable" in schema && !("type" in schema)) delete schema.nullable;
  Object.values(schema).forEach(normalise);
}

/**
 * Form fields arrive as strings: give them the schema's types (numbers, booleans, comma-separated
 * arrays).
 */
function coerceForm(
  fields: Record<string, string>,
  schema: Schema | undefined,
): Record<string, unknown> {
  const properties = schema?.properties ?? {};
  const coerce = (value: string, property: Schema | undefined): unknown => {
    const type = property?.type;
    if (
      (type === "integer" || type === "number") &&
      value.trim() !== "" &&
      !Number.isNaN(Number(value))
    )
      return Number(value);
    if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
    if (type === "array")
      return value === "" ? [] : value.split(",").map((v) => coerce(v.trim(), property!.items));
    return value;
  };
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, coerce(v, properties[k])]));
}

const FORMS = ["application/x-www-form-urlencoded", "multipart/form-data"];

export async function loadOpenApiContract(
  file: string,
  options: OpenApiContractOptions = {},
): Promise<OpenApiContract> {
  const text = await readFile(file, "utf8");
  const document = (file.endsWith(".json") ? JSON.parse(text) : parseYaml(text)) as Record<
    string,
    unknown
  >;
  options.overlay?.(document);
  normalise(document);
  // quick: the published files do not pass openapi-backend's own document validation ($ref with
  // siblings), which says nothing about requests; validators are compiled per operation on first
  // use.
  const api = new OpenAPIBackend({
    definition: document as never,
    apiRoot: options.apiRoot ?? "/",
    quick: true,
    validate: true,
    ajvOpts: { strict: false, allErrors: true, logger: false },
  });
  await api.init();
  return {
    check(request) {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]),
      );
      const shaped = {
        method: request.method.toLowerCase(),
        path: request.path,
        query: request.query,
        headers,
        body: request.body,
      };
      const operation = api.matchOperation(shaped);
      if (!operation)
        return [`the contract has no operation ${request.method.toUpperCase()} ${request.path}`];
      const form = FORMS.find((type) => headers["content-type"]?.startsWith(type));
      if (form && request.body && typeof request.body === "object") {
        const schema = (operation as OperationBody).requestBody?.content?.[form]?.schema;
        shaped.body = coerceForm(request.body as Record<string, string>, schema);
      }
      const result = api.validator.validateRequest(shaped, operation);
      if (result.valid) return [];
      return (result.errors ?? []).map((e) => {
        const where =
          e.instancePath.replace(/^\/requestBody/, "body").replace(/^\//, "") || "(request)";
        const extra =
          e.params && "additionalProperty" in e.params
            ? `: ${String(e.params.additionalProperty)}`
            : "";
        return `${where} ${e.message ?? "is invalid"}${extra}`;
      });
    },
  };
}
