// Requests to every operation of the gateway's OpenAPI document, valid and invalid, as fast-check
// arbitraries. Valid values come from each operation's own schemas (json-schema-faker, seeded by
// fast-check); invalid ones are those values broken one way: a type, a missing field, a length, a
// hostile string, the body's syntax or type, the credentials, the Origin.
import fc from "fast-check";
import { generateSync } from "json-schema-faker";
import { multipart } from "./multipart.js";

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: Schema;
}
export interface DocumentedResponse {
  description: string;
  content?: Record<string, { schema: Schema }>;
}
export interface Operation {
  method: string;
  /** The path template, e.g. /api/products/{id}. */
  path: string;
  operationId: string;
  parameters: Parameter[];
  body: Record<string, Schema> | null;
  bodyRequired: boolean;
  /** The security schemes it takes (none: public). */
  schemes: string[];
  responses: Record<string, DocumentedResponse>;
}

/** An OpenAPI document as operationsOf reads it: each path's operations by method. */
export interface OpenApiPaths {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}

/** Every operation of an OpenAPI document, in its order. */
export function operationsOf(doc: OpenApiPaths): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const requestBody = op.requestBody as
        { required?: boolean; content: Record<string, { schema: Schema }> } | undefined;
      return {
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        parameters: (op.parameters ?? []) as Parameter[],
        body: requestBody
          ? Object.fromEntries(
              Object.entries(requestBody.content).map(([type, media]) => [type, media.schema]),
            )
          : null,
        bodyRequired: requestBody?.required ?? false,
        schemes: ((op.security ?? []) as Record<string, unknown>[]).flatMap((scheme) =>
          Object.keys(scheme),
        ),
        responses: op.responses as Record<string, DocumentedResponse>,
      };
    }),
  );
}

/**
 * What a request is sent with: who calls, and the values the service already knows (ids, channel
 * names, pages it can fetch).
 */
export interface FuzzContext {
  cookies: string[];
  apiKey: string;
  bearer: string;
  /**
   * Strings offered beside generated ones wherever a schema takes any string, so requests reach
   * existing things.
   */
  dictionary: string[];
  /** Addresses json-schema-faker gives `format: uri` fields: loopback only, no name to resolve. */
  uri: (pick: (values: readonly string[]) => string) => string;
  bodyLimit: number;
}

export interface FuzzRequest {
  /** Which kind of request this is: "valid", or the one way it was broken. */
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

// Strings that have broken servers: a lone surrogate (not UTF-8), NUL (not storable in
// PostgreSQL), right-to-left override, an emoji, markup, SQL, a path, a very long one.
const HOSTILE = [
  "\ud800",
  "a\udc00b",
  "nul\u0000byte",
  "\u202eevil",
  "😀",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "../../etc/passwd",
  "%00",
  "x".repeat(20_000),
];
// The same in a URL: bad percent-encoding, a lone surrogate's bytes, NUL, very long, a dot segment.
const HOSTILE_URL = [
  "%zz",
  "%",
  "%ED%A0%80",
  "%00",
  "a".repeat(300),
  "%2e%2e",
  "%F0%9F%98%80",
  "%C0%AF",
  "-1",
  "0",
];
const WRONG_TYPES = [
  null,
  0,
  -1,
  1.5,
  1e308,
  true,
  "",
  "not-a-number",
  [],
  {},
  [null],
  { nested: {} },
];

const hostileString = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 1 },
);

// Short strings and arrays (the breakers below go past the limits): a 5 MB string the schema allows
// costs seconds to generate (json-schema-faker makes it whole, then cuts it to its maxLength
// option) and finds nothing a 100-character one does not.
const LONGEST = 100;
const MOST_ITEMS = 3;

/**
 * The schema json-schema-faker is given: lengths and item counts bounded, and plain strings (no
 * format, pattern or enum) offered a known value that fits them besides a generated one.
 */
function forGeneration(schema: unknown, dictionary: string[]): unknown {
  if (Array.isArray(schema)) return schema.map((s) => forGeneration(s, dictionary));
  if (schema === null || typeof schema !== "object") return schema;
  const s = schema as Schema;
  const out: Schema = Object.fromEntries(
    Object.entries(s).map(([k, v]) => [k, forGeneration(v, dictionary)]),
  );
  if (typeof s.maxLength === "number" && s.maxLength > LONGEST)
    out.maxLength = Math.max(LONGEST, Number(s.minLength ?? 0));
  if (typeof s.maxItems === "number" && s.maxItems > MOST_ITEMS)
    out.maxItems = Math.max(MOST_ITEMS, Number(s.minItems ?? 0));
  if (s.type === "string" && !s.format && !s.pattern && !s.enum && s.const === undefined) {
    const fits = dictionary.filter(
      (word) =>
        word.length >= Number(s.minLength ?? 0) && word.length <= Number(s.maxLength ?? Infinity),
    );
    // Twice, so two strings in three are known ones: most ids must name something for a request to
    // get past its 404.
    if (fits.length > 0) return { anyOf: [out, { enum: fits }, { enum: fits }] };
  }
  return out;
}

const generate = (schema: Schema, seed: number, context: FuzzContext) =>
  generateSync(schema, {
    seed,
    maxDefaultItems: MOST_ITEMS,
    optionalsProbability: 0.5,
    formats: { uri: (random) => context.uri((values) => random.pick(values)) },
  });

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

interface Parts {
  path: Record<string, string>;
  query: [string, string][];
  body: { type: string; value: unknown } | null;
  headers: Record<string, string>;
}

function render(op: Operation, parts: Parts, kind: string): FuzzRequest {
  // Values are percent-encoded as a client would, except those of a broken URL, sent as they are.
  const encode = kind === "hostile path parameter" ? (v: string) => v : encodeURIComponent;
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encode(parts.path[name] ?? ""));
  const query = parts.query
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${kind === "hostile query value" ? v : encodeURIComponent(v)}`,
    )
    .join("&");
  const request: FuzzRequest = {
    kind,
    method: op.method,
    url: query ? `${path}?${query}` : path,
    headers: { ...parts.headers },
  };
  if (parts.body) {
    const { type, value } = parts.body;
    if (type === "multipart/form-data") {
      const fields = Object.entries(value as Record<string, unknown>).map(([name, v]) =>
        name === "file"
          ? { name, value: String(v), filename: "products.csv", type: "text/csv" }
          : { name, value: asText(v) },
      );
      const form = multipart(fields);
      request.payload = form.payload;
      Object.assign(request.headers, form.headers);
    } else {
      request.payload = type === "application/json" ? JSON.stringify(value) : asText(value);
      request.headers["content-type"] = type;
    }
  }
  return request;
}

/**
 * A valid request: every value from the operation's schemas, with the credentials it takes; its
 * body of `type` when it takes one. With `hostile`, the body's strings may also be hostile ones
 * that fit their schema (a lone surrogate or a NUL is still a string).
 */
function validParts(
  op: Operation,
  seed: number,
  context: FuzzContext,
  caller: number,
  { type, hostile = false }: { type?: string; hostile?: boolean } = {},
): Parts {
  const of = (schema: Schema, salt: number, words = context.dictionary) =>
    generate(forGeneration(schema, words) as Schema, seed + salt, context);
  const path: Record<string, string> = {};
  const query: [string, string][] = [];
  op.parameters.forEach((p, i) => {
    if (p.in === "path") path[p.name] = asText(of(p.schema, i));
    // Optional query fields are sent half the time.
    else if (p.in === "query" && (p.required || (seed + i) % 2 === 0))
      query.push([p.name, asText(of(p.schema, i))]);
  });
  const headers: Record<string, string> = {};
  if (op.schemes.includes("session"))
    headers.cookie = context.cookies[caller % context.cookies.length]!;
  if (op.schemes.includes("apiKey")) headers["x-service-api-key"] = context.apiKey;
  if (op.schemes.includes("notificationSecret")) headers.authorization = `Bearer ${context.bearer}`;
  const types = Object.keys(op.body ?? {});
  const chosen = type && types.includes(type) ? type : types[seed % Math.max(1, types.length)];
  const body =
    chosen && op.body
      ? {
          type: chosen,
          value: of(
            op.body[chosen]!,
            100,
            hostile ? [...context.dictionary, ...HOSTILE] : context.dictionary,
          ),
        }
      : null;
  if (body?.type === "multipart/form-data") {
    // The file part: a small CSV of products (the same parser reads every format).
    const value = body.value as Record<string, unknown>;
    value.file = `title,sku,price,currency\nLamp ${seed},SKU-${seed},${seed % 1000}.50,EUR\n`;
  }
  return { path, query, body, headers };
}

type Path = (string | number)[];

/** Paths to every value inside `value` (objects and arrays included, the root first). */
function pathsIn(value: unknown, at: Path = []): Path[] {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => pathsIn(v, [...at, i]))];
  if (value !== null && typeof value === "object")
    return [at, ...Object.entries(value).flatMap(([k, v]) => pathsIn(v, [...at, k]))];
  return [at];
}

const valueAt = (value: unknown, path: Path) =>
  path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], value);

const REMOVE = Symbol("remove");

/** `value` with the value at `path` replaced by `by(old)`, or removed when that gives REMOVE. */
function replaced(value: unknown, path: Path, by: (old: unknown) => unknown): unknown {
  if (path.length === 0) return by(value);
  const [head, ...rest] = path;
  const copy = (
    Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }
  ) as Record<string | number, unknown>;
  const next = replaced(copy[head!], rest, by);
  if (next === REMOVE) delete copy[head!];
  else copy[head!] = next;
  return copy;
}

/**
 * The random choices a breaker is given: an index to pick with, a value of some wrong type, a
 * hostile string.
 */
interface Choice {
  n: number;
  wrong: unknown;
  hostile: string;
  bodyLimit: number;
}

/**
 * One way of breaking a valid request, for the operations it `applies` to (a JSON one when `json`).
 */
interface Breaker {
  applies: (op: Operation) => boolean;
  json?: true;
  apply: (parts: Parts, op: Operation, choice: Choice) => Parts;
}

const pick = <T>(list: T[], n: number): T => list[n % list.length]!;
const withBody = (op: Operation) => BODY_METHODS.has(op.method);
const takesJson = (op: Operation) => op.body?.["application/json"] !== undefined;
const queryNames = (op: Operation) =>
  op.parameters.filter((p) => p.in === "query").map((p) => p.name);
const pathNames = (op: Operation) =>
  op.parameters.filter((p) => p.in === "path").map((p) => p.name);
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** `parts` with its JSON body's value at a random path (one `at` accepts) changed by `by`. */
function inBody(
  parts: Parts,
  n: number,
  at: (value: unknown) => boolean,
  by: (old: unknown) => unknown,
): Parts {
  const body = parts.body!;
  const paths = pathsIn(body.value).filter((path) => at(valueAt(body.value, path)));
  return paths.length === 0
    ? parts
    : { ...parts, body: { ...body, value: replaced(body.value, pick(paths, n), by) } };
}
const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);

const BREAKERS: Record<string, Breaker> = {
  "no credentials": {
    applies: (op) => op.schemes.length > 0,
    apply: (parts) => ({ ...parts, headers: {} }),
  },
  "wrong credentials": {
    applies: (op) => op.schemes.length > 0,
    apply: (parts) => ({
      ...parts,
      headers: {
        cookie: "sid=forged-session-token",
        "x-service-api-key": "csk_forged_key",
        authorization: "Bearer forged",
      },
    }),
  },
  "foreign origin": {
    applies: withBody,
    apply: (parts) => ({
      ...parts,
      headers: { ...parts.headers, origin: "https://attacker.test" },
    }),
  },
  "hostile path parameter": {
    applies: (op) => pathNames(op).length > 0,
    apply: (parts, op, { n }) => ({
      ...parts,
      path: { ...parts.path, [pick(pathNames(op), n)]: pick(HOSTILE_URL, n) },
    }),
  },
  "wrong query value": {
    applies: (op) => queryNames(op).length > 0,
    apply: (parts, op, { n, wrong }) => {
      const name = pick(queryNames(op), n);
      return {
        ...parts,
        query: [...parts.query.filter(([k]) => k !== name), [name, asText(wrong)]],
      };
    },
  },
  "hostile query value": {
    applies: () => true,
    apply: (parts, op, { n }) => ({
      ...parts,
      query: [
        ...parts.query,
        [queryNames(op).length > 0 ? pick(queryNames(op), n) : "unexpected", pick(HOSTILE_URL, n)],
      ],
    }),
  },
  "repeated query field": {
    applies: (op) => queryNames(op).length > 0,
    apply: (parts, op, { n }) => ({
      ...parts,
      query: [...parts.query, [pick(queryNames(op), n), "1"], [pick(queryNames(op), n), "2"]],
    }),
  },
  "unknown query field": {
    applies: () => true,
    apply: (parts) => ({ ...parts, query: [...parts.query, ["unexpected", "1"]] }),
  },
  "wrong type in body": {
    applies: takesJson,
    json: true,
    apply: (parts, _op, { n, wrong }) =>
      inBody(
        parts,
        n,
        () => true,
        () => wrong,
      ),
  },
  "field left out of body": {
    applies: takesJson,
    json: true,
    apply: (parts, _op, { n }) =>
      inBody(
        parts,
        n,
        (v) => isObject(v) && Object.keys(v as object).length > 0,
        (o) => {
          const keys = Object.keys(o as object);
          return replaced(o, [pick(keys, n)], () => REMOVE);
        },
      ),
  },
  "unknown field in body": {
    applies: takesJson,
    json: true,
    apply: (parts, _op, { n }) =>
      inBody(parts, n, isObject, (o) => ({ ...(o as object), unexpected: 1 })),
  },
  "hostile string in body": {
    applies: takesJson,
    json: true,
    apply: (parts, _op, { n, hostile }) => {
      const strings = inBody(
        parts,
        n,
        (v) => typeof v === "string",
        () => hostile,
      );
      return strings === parts
        ? inBody(
            parts,
            n,
            () => true,
            () => hostile,
          )
        : strings;
    },
  },
  "body nested too deeply": {
    applies: takesJson,
    json: true,
    apply: (parts, _op, { n }) => {
      let deep: unknown = "bottom";
      for (let i = 0; i < 40; i += 1) deep = i % 2 ? [deep] : { d: deep };
      return inBody(
        parts,
        n,
        () => true,
        () => deep,
      );
    },
  },
  "malformed JSON body": {
    applies: withBody,
    apply: (parts, _op, { n }) => ({
      ...parts,
      body: { type: "application/json", value: pick(['{"a":', "{}}", "", "nul", "\ud800"], n) },
    }),
  },
  "body that is not JSON": {
    applies: withBody,
    apply: (parts, _op, { n }) => ({
      ...parts,
      body: {
        type: pick(["text/plain", "application/xml", "application/x-www-form-urlencoded"], n),
        value: "a=1",
      },
    }),
  },
  "body left out": {
    applies: (op) => op.bodyRequired,
    apply: (parts) => ({ ...parts, body: null }),
  },
  "JSON body where none is taken": {
    applies: (op) => withBody(op) && !op.body,
    apply: (parts) => ({
      ...parts,
      body: { type: "application/json", value: { unexpected: true } },
    }),
  },
  "body over the size limit": {
    applies: withBody,
    apply: (parts, _op, { bodyLimit }) => ({
      ...parts,
      body: { type: "application/json", value: { filler: "x".repeat(bodyLimit) } },
    }),
  },
  "malformed multipart body": {
    applies: (op) => op.body?.["multipart/form-data"] !== undefined,
    apply: (parts, _op, { n }) => ({ ...parts, body: { type: BROKEN_MULTIPART, value: n } }),
  },
};
const BROKEN_MULTIPART = "broken multipart";

/**
 * Multipart bodies a browser would never send: no boundary, cut short, a hostile file name, the
 * file under another name.
 */
function brokenMultipart(n: number): { payload: Buffer; headers: Record<string, string> } {
  const boundary = "----fuzzboundary";
  const form = (body: string) => ({
    payload: Buffer.from(body),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  });
  const file = (filename: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\ntitle\nLamp\r\n--${boundary}--\r\n`;
  switch (n % 5) {
    case 0:
      return { payload: Buffer.from("a"), headers: { "content-type": "multipart/form-data" } };
    case 1:
      return form(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\ntitle\nLamp\n`,
      );
    case 2:
      return form(file("nul\u0000.csv"));
    case 3:
      return form(file("\ud800.csv"));
    default:
      return form(
        `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--${boundary}--\r\n`,
      );
  }
}

/**
 * Valid requests, valid ones with hostile strings (where a body is taken) and requests broken one
 * way, for `op`.
 */
export function requestsFor(op: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const base = { seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }), caller: fc.nat() };
  const valid = fc
    .record(base)
    .map(({ seed, caller }) => render(op, validParts(op, seed, context, caller), "valid"));
  const hostile = fc
    .record(base)
    .map(({ seed, caller }) =>
      render(
        op,
        validParts(op, seed, context, caller, { hostile: true }),
        "valid, hostile strings",
      ),
    );
  const broken = fc
    .record({
      ...base,
      how: fc.constantFrom(...Object.keys(BREAKERS).filter((how) => BREAKERS[how]!.applies(op))),
      n: fc.nat(),
      wrong: fc.constantFrom(...WRONG_TYPES),
      hostile: hostileString,
    })
    .map(({ seed, caller, how, n, wrong, hostile }) => {
      const breaker = BREAKERS[how]!;
      const parts = breaker.apply(
        validParts(op, seed, context, caller, {
          type: breaker.json ? "application/json" : undefined,
        }),
        op,
        { n, wrong, hostile, bodyLimit: context.bodyLimit },
      );
      if (parts.body?.type !== BROKEN_MULTIPART) return render(op, parts, how);
      const request = render(op, { ...parts, body: null }, how);
      const form = brokenMultipart(n);
      return {
        ...request,
        payload: form.payload,
        headers: { ...request.headers, ...form.headers },
      };
    });
  return fc.oneof(
    { arbitrary: valid, weight: 2 },
    { arbitrary: hostile, weight: op.body ? 2 : 0 },
    { arbitrary: broken, weight: 3 },
  );
}
