// Whether an answer is one the OpenAPI document gives for the operation: a documented status, not
// 5xx, the documented media type, and a body its schema accepts (Ajv, JSON Schema 2020-12 as
// OpenAPI 3.1 uses it).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { DocumentedResponse, Operation } from "./openapi-fuzz-requests.js";

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
const compiled = new Map<object, ValidateFunction>();
const validatorOf = (schema: object) =>
  compiled.get(schema) ?? compiled.set(schema, ajv.compile(schema)).get(schema)!;

/** What is wrong with `answer` to `op`, or null when the document allows it. */
export function mismatchOf(op: Operation, answer: Answer): string | null {
  if (answer.status >= 500) return `a ${answer.status}`;
  const documented: DocumentedResponse | undefined =
    op.responses[String(answer.status)] ?? op.responses.default;
  if (!documented)
    return `status ${answer.status}, which the document does not list (it lists ${Object.keys(op.responses).join(", ")})`;
  const type = answer.contentType.split(";")[0]!.trim().toLowerCase();
  if (!documented.content)
    return answer.body === "" ? null : `a body (${type}) where the document gives none`;
  const media = documented.content[type];
  if (!media)
    return `Content-Type ${type || "(none)"}, the document gives ${Object.keys(documented.content).join(", ")}`;
  if (type !== "application/json") return null;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return "a body that is not JSON";
  }
  const validate = validatorOf(media.schema);
  if (validate(body)) return null;
  const [first] = validate.errors ?? [];
  return `a body its ${answer.status} schema refuses: ${first?.instancePath || "(root)"} ${first?.message} ${JSON.stringify(first?.params)}`;
}
