// Channel answers checked against TypeBox schemas of the parts we read (ids, errors, tokens), so a
// channel answering something else fails with a clear, classified error instead of storing
// `undefined`. The schemas stay open: channels add fields, and extra fields are never a fault.
import type { Static, TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import type { ChannelName } from "./channel-names.js";
import { throwIfFailed, type Answer } from "./channel-http.js";
import { RetryableChannelError } from "./errors.js";

const validators = new WeakMap<TSchema, Validator>();

function validator(schema: TSchema): Validator {
  let found = validators.get(schema);
  if (!found) validators.set(schema, (found = Compile(schema)));
  return found;
}

/**
 * Where `value` first departs from `schema`, in words ("/product/id must be string"); undefined
 * when it matches.
 */
export function answerProblem(schema: TSchema, value: unknown): string | undefined {
  const check = validator(schema);
  if (check.Check(value)) return undefined;
  const errors = check.Errors(value);
  const first = errors[0];
  if (!first) return "it does not match";
  // A union reports each branch's type: "must be string or null" says it at once.
  const types = errors
    .filter((e) => e.instancePath === first.instancePath && e.keyword === "type")
    .map((e) => (e.params as { type: unknown }).type);
  const message = types.length > 1 ? `must be ${types.join(" or ")}` : first.message;
  return `${first.instancePath || "the answer"} ${message}`;
}

/**
 * `value` (a part of a 2xx answer) as `schema` describes it. A channel that answered success with
 * something else had a hiccup (a proxy's page, a half-deployed API): retryable, and the message
 * says what was wrong, so a publish that runs out of attempts shows it.
 */
export function checkAnswer<T extends TSchema>(
  channel: ChannelName,
  status: number,
  schema: T,
  value: unknown,
  what: string,
): Static<T> {
  const problem = answerProblem(schema, value);
  if (problem)
    throw new RetryableChannelError(
      `${channel} answered ${status} with an unexpected ${what}: ${problem}`,
      { channel, status },
    );
  return value as Static<T>;
}

/**
 * A 2xx answer's JSON checked against `schema`; an unreadable body is retryable, as with jsonBody.
 */
export function parseAnswer<T extends TSchema>(
  channel: ChannelName,
  answer: Answer,
  schema: T,
  what: string,
): Static<T> {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new RetryableChannelError(
      `${channel} answered ${answer.status} with an unreadable body`,
      { channel, status: answer.status },
    );
  }
  return checkAnswer(channel, answer.status, schema, body, what);
}

/** throwIfFailed, then parseAnswer. */
export function okAnswer<T extends TSchema>(
  channel: ChannelName,
  answer: Answer,
  schema: T,
  what: string,
): Static<T> {
  throwIfFailed(channel, answer);
  return parseAnswer(channel, answer, schema, what);
}
