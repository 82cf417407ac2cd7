// The product type's definition (Product Type Definitions API 2020-09-01): its JSON Schema, found
// through the definition's `schema.link`, says what a listing's attributes must be. We validate the
// attributes we built against the whole schema before sending anything: the attributes it
// requires, those its conditionals require (`allOf: [{ if, then: { required } }]`, e.g. a child of
// a COLOR variation theme must give its color) and the values' constraints (enum, maxLength,
// minimum...), so a product Amazon would refuse gives up naming the attribute instead of coming
// back INVALID; attributes the schema does not know are left out. The schemas are JSON Schema
// draft 2019-09 under Amazon's own meta-schema (not network addressable, so not loaded): Ajv
// compiles them without checking them against it, ignores the informational keywords (`editable`,
// `hidden`, `enumNames`) and those it cannot apply alone (`selectors`, `maxUniqueItems`, left to
// Amazon), and checks `maxUtf8ByteLength`/`minUtf8ByteLength`. Each schema is compiled once per
// cache entry; one that does not compile leaves the check to its top-level `required` list.
import { Ajv2019, type ErrorObject, type ValidateFunction } from "ajv/dist/2019.js";
import addFormats from "ajv-formats";
import { type ChannelCall, jsonBody } from "../channel-http.js";
import { GiveUpChannelError, RetryableChannelError } from "../errors.js";
import { throwIfAmazonFailed } from "./amazon-answers.js";
import { type AmazonListingItem, OFFER_ATTRIBUTES } from "./amazon-attributes.js";
import type { AmazonSettings } from "./amazon-settings.js";

export interface ProductTypeSchema {
  required: string[];
  /** Null when the schema lists no properties (then nothing is left out). */
  properties: Set<string> | null;
  /**
   * The whole schema, compiled; null when it would not compile (then only `required` is checked).
   */
  validate: ValidateFunction | null;
}

/**
 * What the schema finds wrong with one SKU's attributes: the attribute (absent when none is to
 * blame) and in plain words.
 */
export interface AttributeProblem {
  sku: string;
  /**
   * `missing`: one the schema requires outright; `conditional`: one its conditionals require;
   * `value`: anything else.
   */
  kind: "missing" | "conditional" | "value";
  attribute?: string;
  message: string;
}

// Definitions change rarely; Amazon's own guidance is to cache them (the checksum says when they
// changed).
const TTL_MS = 60 * 60_000;
const cache = new Map<string, { schema: ProductTypeSchema; until: number }>();
/** How much of the problems a give-up's message lists. */
const MAX_MESSAGE = 600;
const MAX_LISTED_VALUES = 8;

const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * The schema document as a check: compiled with Ajv (draft 2019-09), or, when it will not compile,
 * its required list alone.
 */
export function compileProductTypeSchema(document: unknown): ProductTypeSchema {
  const doc = (document && typeof document === "object" ? document : {}) as {
    required?: unknown;
    properties?: Record<string, unknown>;
  };
  let validate: ValidateFunction | null;
  try {
    // A fresh instance per schema: it goes with the cache entry, and the same $id can come again.
    // validateSchema: false, since Amazon's meta-schema is not at hand; strict: false ignores its
    // keywords.
    const ajv = new Ajv2019({
      strict: false,
      validateSchema: false,
      allErrors: true,
      verbose: true,
      logger: false,
    });
    addFormats.default(ajv);
    ajv.addKeyword({
      keyword: "maxUtf8ByteLength",
      type: "string",
      schemaType: "number",
      validate: (max: number, data: string) => utf8Bytes(data) <= max,
    });
    ajv.addKeyword({
      keyword: "minUtf8ByteLength",
      type: "string",
      schemaType: "number",
      validate: (min: number, data: string) => utf8Bytes(data) >= min,
    });
    validate = ajv.compile(doc);
  } catch {
    validate = null;
  }
  return {
    required: Array.isArray(doc.required)
      ? doc.required.filter((r): r is string => typeof r === "string")
      : [],
    properties: doc.properties ? new Set(Object.keys(doc.properties)) : null,
    validate,
  };
}

export async function productTypeSchema(
  call: ChannelCall,
  api: string,
  token: string,
  s: AmazonSettings,
): Promise<ProductTypeSchema> {
  const key = `${api}|${s.productType}|${s.marketplaceId}|${s.languageTag}`;
  const cached = cache.get(key);
  if (cached && cached.until > Date.now()) return cached.schema;
  const query = new URLSearchParams({
    marketplaceIds: s.marketplaceId,
    sellerId: s.sellerId,
    requirements: "LISTING",
    locale: "DEFAULT",
  });
  const answer = await call({
    method: "GET",
    url: `${api}/definitions/2020-09-01/productTypes/${encodeURIComponent(s.productType)}?${query.toString()}`,
    headers: { "x-amz-access-token": token },
  });
  if (answer.status === 404) {
    throw new GiveUpChannelError(
      `amazon has no product type ${s.productType} in marketplace ${s.marketplaceId}`,
      {
        channel: "amazon",
        status: 404,
        kind: "validation",
        field: "productType",
        channelMessage: `productType ${s.productType} is not an Amazon product type of this marketplace`,
      },
    );
  }
  throwIfAmazonFailed(answer);
  const definition = jsonBody("amazon", answer) as { schema?: { link?: { resource?: string } } };
  const resource = definition.schema?.link?.resource;
  if (!resource)
    throw new RetryableChannelError(
      `amazon gave the ${s.productType} definition without a schema link`,
      { channel: "amazon" },
    );
  // The link is a pre-signed download: it carries its own authorization.
  const download = await call({ method: "GET", url: resource });
  throwIfAmazonFailed(download);
  const schema = compileProductTypeSchema(jsonBody("amazon", download));
  cache.set(key, { schema, until: Date.now() + TTL_MS });
  return schema;
}

/** The item with only the attributes the product type knows. */
const fit = (item: AmazonListingItem, schema: ProductTypeSchema): AmazonListingItem => ({
  ...item,
  attributes: schema.properties
    ? Object.fromEntries(
        Object.entries(item.attributes).filter(([name]) => schema.properties!.has(name)),
      )
    : item.attributes,
});

/** The JSON Schema keywords a condition in words reads (the schema comes from Amazon). */
interface SchemaNode {
  required?: string[];
  properties?: Record<string, SchemaNode | undefined>;
  contains?: SchemaNode;
  items?: SchemaNode;
  not?: SchemaNode;
  const?: unknown;
  enum?: unknown[];
  [keyword: string]: unknown;
}

const listed = (values: unknown[]) => {
  const shown = values
    .slice(0, MAX_LISTED_VALUES)
    .map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return values.length > MAX_LISTED_VALUES ? `${shown.join(", ")}, …` : shown.join(", ");
};

/**
 * A condition (an `if` of Amazon's usual shape) in words: "parentage_level is child and
 * variation_theme is COLOR or SIZE/COLOR".
 */
function conditionInWords(condition: unknown): string | null {
  if (!condition || typeof condition !== "object") return null;
  const { required, properties, not, ...rest } = condition as SchemaNode;
  if (Object.keys(rest).length > 0) return null;
  const parts: string[] = [];
  const constrained = new Set(Object.keys(properties ?? {}));
  for (const name of Array.isArray(required) ? required : [])
    if (!constrained.has(name)) parts.push(`${name} is given`);
  for (const [name, rule] of Object.entries(properties ?? {})) {
    const inner = (rule?.contains ?? rule?.items)?.properties;
    if (!inner) return null;
    for (const [field, value] of Object.entries(inner)) {
      const label = field === "value" ? name : `${name} ${field}`;
      const allowed = value?.enum;
      if (value && "const" in value) parts.push(`${label} is ${listed([value.const])}`);
      else if (Array.isArray(allowed))
        parts.push(
          `${label} is ${allowed.length === 1 ? listed(allowed) : `one of ${listed(allowed)}`}`,
        );
      else return null;
    }
  }
  if (not) {
    if (!Array.isArray(not.required) || Object.keys(not).length > 1) return null;
    parts.push(`${not.required.join(", ")} ${not.required.length > 1 ? "are" : "is"} not given`);
  }
  return parts.length > 0 ? parts.join(" and ") : null;
}

/**
 * Where in the attribute the error is, past its name, list indexes and a plain `value` left out:
 * "our_price.schedule.value_with_tax".
 */
function innerPath(instancePath: string): string {
  const inner = instancePath
    .split("/")
    .slice(2)
    .filter((s) => s && !/^\d+$/.test(s));
  return inner.length === 1 && inner[0] === "value" ? "" : inner.join(".");
}

/** Ajv's message, said of the value (allowed values named). */
function valueMessage(error: ErrorObject): string {
  if (error.keyword === "enum" && Array.isArray(error.params.allowedValues))
    return `must be one of ${listed(error.params.allowedValues)}`;
  if (error.keyword === "const") return `must be ${listed([error.params.allowedValue])}`;
  if (error.keyword === "maxUtf8ByteLength")
    return `must NOT be longer than ${String(error.schema)} bytes (UTF-8)`;
  if (error.keyword === "minUtf8ByteLength")
    return `must NOT be shorter than ${String(error.schema)} bytes (UTF-8)`;
  if (error.keyword === "anyOf" || error.keyword === "oneOf")
    return "matches none of the forms the product type accepts";
  return error.message ?? `is not valid (${error.keyword})`;
}

/**
 * The problems Ajv found, by attribute: required ones (the schema's own, then its conditionals'),
 * then values.
 */
function schemaProblems(
  sku: string,
  errors: ErrorObject[],
  productType: string,
): AttributeProblem[] {
  const problems: AttributeProblem[] = [];
  const byPath = new Map(errors.map((e) => [e.schemaPath, e]));
  // A failed anyOf/oneOf speaks for its branches: their errors are not listed again.
  const alternatives = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf");
  const within = (e: ErrorObject, a: ErrorObject) =>
    (e.instancePath === a.instancePath || e.instancePath.startsWith(`${a.instancePath}/`)) &&
    e.schemaPath.startsWith(`${a.schemaPath}/`);
  const inAlternative = (e: ErrorObject) => alternatives.some((a) => a !== e && within(e, a));
  for (const error of errors) {
    if (error.keyword === "if" || inAlternative(error)) continue;
    const attribute = error.instancePath.split("/")[1];
    if (attribute === undefined) {
      if (error.keyword === "required" || error.keyword === "dependentRequired") {
        const missing = String(error.params.missingProperty);
        // A conditional's: said with its `if` in words where it has Amazon's usual shape.
        const branch = /^(.*)\/(then|else)\/required$/.exec(error.schemaPath);
        const condition =
          branch && conditionInWords(byPath.get(`${branch[1]}/if`)?.parentSchema?.if);
        const when =
          error.keyword === "dependentRequired"
            ? `when ${error.params.property} is given`
            : !branch
              ? null
              : !condition
                ? "under the product type's conditions"
                : `${branch[2] === "then" ? "when" : "unless"} ${condition}`;
        problems.push(
          when
            ? {
                sku,
                kind: "conditional",
                attribute: missing,
                message: `${productType} requires ${missing} ${when}`,
              }
            : {
                sku,
                kind: "missing",
                attribute: missing,
                message: `${productType} requires ${missing}, which the product does not give`,
              },
        );
      } else if (error.keyword === "anyOf" || error.keyword === "oneOf") {
        const branches = errors.filter(
          (e) =>
            e !== error && e.instancePath === "" && e.keyword === "required" && within(e, error),
        );
        const names = [...new Set(branches.map((e) => String(e.params.missingProperty)))];
        if (names.length > 0)
          problems.push({
            sku,
            kind: "conditional",
            attribute: names[0],
            message: `${productType} requires ${error.keyword === "oneOf" ? "exactly " : ""}one of ${names.join(", ")}`,
          });
        else
          problems.push({
            sku,
            kind: "value",
            message: `the attributes match none of the forms ${productType} accepts`,
          });
      } else
        problems.push({ sku, kind: "value", message: `the attributes ${valueMessage(error)}` });
      continue;
    }
    const where = innerPath(error.instancePath);
    problems.push({
      sku,
      kind: "value",
      attribute,
      message: `${attribute}${where ? `.${where}` : ""}: ${error.keyword === "required" && error.params.missingProperty ? `${error.params.missingProperty} is missing` : valueMessage(error)}`,
    });
  }
  const seen = new Set<string>();
  const order = ["missing", "conditional", "value"];
  return problems
    .filter((p) => !seen.has(p.message) && seen.add(p.message))
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

/**
 * Every problem the product type's schema finds in the items' attributes (those it knows); a parent
 * SKU is not asked for an offer.
 */
export function productTypeProblems(
  items: AmazonListingItem[],
  schema: ProductTypeSchema,
  productType: string,
): AttributeProblem[] {
  return items.flatMap((built) => {
    const item = fit(built, schema);
    const problems = schema.validate
      ? schema.validate(item.attributes)
        ? []
        : schemaProblems(item.sku, schema.validate.errors ?? [], productType)
      : schema.required
          .filter((name) => !item.attributes[name])
          .map((name): AttributeProblem => ({
            sku: item.sku,
            kind: "missing",
            attribute: name,
            message: `${productType} requires ${name}, which the product does not give`,
          }));
    // A parent SKU carries no offer; Amazon requires the offer only of what can be bought.
    return problems.filter(
      (p) => !(item.role === "parent" && p.attribute && OFFER_ATTRIBUTES.includes(p.attribute)),
    );
  });
}

/**
 * The problems in one sentence, bounded: the attributes missing together, then each other problem.
 */
function inWords(problems: AttributeProblem[], productType: string): string {
  const plain = problems.filter((p) => p.kind === "missing");
  const said = [
    ...(plain.length > 0
      ? [
          `${productType} requires ${plain.map((p) => p.attribute).join(", ")}, which the product does not give`,
        ]
      : []),
    ...problems.filter((p) => !plain.includes(p)).map((p) => p.message),
  ];
  let text = "";
  for (const [i, sentence] of said.entries()) {
    const next = text ? `${text}; ${sentence}` : sentence;
    if (next.length > MAX_MESSAGE && text) return `${text}; and ${said.length - i} more`;
    text = next;
  }
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

/**
 * The items with the attributes the product type knows; gives up on the first SKU the schema
 * refuses, listing its problems and naming the first one's attribute.
 */
export function fitToProductType(
  items: AmazonListingItem[],
  schema: ProductTypeSchema,
  productType: string,
): AmazonListingItem[] {
  const problems = productTypeProblems(items, schema, productType);
  if (problems.length > 0) {
    const sku = problems[0]!.sku;
    const said = inWords(
      problems.filter((p) => p.sku === sku),
      productType,
    );
    throw new GiveUpChannelError(`amazon: SKU ${sku}: ${said}`, {
      channel: "amazon",
      kind: "validation",
      field: problems[0]!.attribute,
      channelMessage: said,
    });
  }
  return items.map((item) => fit(item, schema));
}
