// Amazon's dry run: the product's checks the adapter gives up with, then, when they pass and the
// settings are complete, Amazon's own verdict without creating anything: each SKU the publish
// would put is sent to putListingsItem with mode=VALIDATION_PREVIEW (Amazon validates the item
// against the product type and answers VALID or INVALID with its issues; nothing is stored), after
// the same product type definition check a publish makes, whose every problem is listed (a publish
// gives up on the first SKU's). Needs the store's credentials. A dry run of many products meets
// Amazon's rate limit (5 requests a second per seller): a throttled preview is sent again after
// the wait Amazon asks for (a second at most, by its x-amzn-RateLimit-Limit), twice at most.
import { setTimeout as sleep } from "node:timers/promises";
import type { ChannelContext } from "../channel-definition.js";
import { channelCaller, jsonBody, type Answer } from "../channel-http.js";
import { requiredBaseUrl } from "../destination-fields.js";
import { ChannelWaitError, GiveUpChannelError } from "../errors.js";
import {
  problemOf,
  productPreflight,
  type PreflightInput,
  type PreflightProblem,
} from "../preflight.js";
import { throwIfAmazonFailed, type Issue } from "./amazon-answers.js";
import { listingItems } from "./amazon-attributes.js";
import { amazonProductProblems, listingsItemUrl, putBody } from "./amazon-checks.js";
import type { AmazonApp } from "./amazon-env.js";
import {
  type AttributeProblem,
  fitToProductType,
  productTypeProblems,
  productTypeSchema,
} from "./amazon-product-type.js";
import { amazonSettings, type AmazonSettings } from "./amazon-settings.js";
import { requestLwaToken } from "./amazon-token.js";

const CHANNEL = "amazon";
/** An access token this close to its end is refreshed first (it lives an hour). */
const EXPIRY_MARGIN_MS = 60_000;

/** Sends of one preview when Amazon throttles it, and the longest wait taken between them. */
const PREVIEW_TRIES = 3;
const MAX_PREVIEW_WAIT_MS = 5_000;

/**
 * The preview's answer, sent again after a throttle's wait while tries and the check's time allow.
 */
async function previewAnswer(send: () => Promise<Answer>, signal: AbortSignal): Promise<Answer> {
  for (let tried = 1; ; tried++) {
    const answer = await send();
    try {
      throwIfAmazonFailed(answer);
      return answer;
    } catch (error) {
      if (
        !(error instanceof ChannelWaitError) ||
        tried >= PREVIEW_TRIES ||
        error.retryAfterMs > MAX_PREVIEW_WAIT_MS
      )
        throw error;
      await sleep(error.retryAfterMs, undefined, { signal });
    }
  }
}

const reconnect = (why: string): PreflightProblem => ({
  field: "destination",
  message: `${why}: connect the store again`,
});

/**
 * An access token good for the preview: the stored one, or one from the refresh token (not stored:
 * a dry run writes nothing).
 */
async function accessToken(
  context: ChannelContext<AmazonApp>,
  credentials: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string | PreflightProblem> {
  const { accessToken: token, refreshToken, expiresAt } = credentials;
  const fresh =
    typeof token === "string" &&
    token &&
    !(typeof expiresAt === "number" && expiresAt < Date.now() + EXPIRY_MARGIN_MS);
  if (fresh) return token;
  if (typeof refreshToken !== "string" || !refreshToken)
    return reconnect(
      "Amazon's validation preview needs the store's credentials, which are not at hand",
    );
  try {
    return (
      await requestLwaToken(
        context.app,
        { grant_type: "refresh_token", refresh_token: refreshToken },
        signal,
        context.timeoutMs,
      )
    ).accessToken;
  } catch (error) {
    if (error instanceof GiveUpChannelError && error.kind === "auth")
      return reconnect(`Amazon refused the store's token (${error.channelMessage})`);
    throw error;
  }
}

/**
 * The product type check's problems, named by attribute; one that every SKU has is said once,
 * others name their SKUs.
 */
function attributeProblems(problems: AttributeProblem[], skus: number): PreflightProblem[] {
  const byProblem = new Map<string, { field: string; message: string; skus: string[] }>();
  for (const p of problems) {
    const field = p.attribute ? `attributes.${p.attribute}` : "product";
    const key = `${field}\n${p.message}`;
    const known = byProblem.get(key);
    if (known) known.skus.push(p.sku);
    else byProblem.set(key, { field, message: p.message, skus: [p.sku] });
  }
  return [...byProblem.values()].map(({ field, message, skus: named }) => ({
    field,
    message: skus > 1 && named.length < skus ? `${message} (SKU ${named.join(", ")})` : message,
  }));
}

/**
 * Each ERROR issue of a preview as a problem, named by its attribute (the product's attributes
 * carry Amazon's names).
 */
function issueProblems(
  sku: string,
  several: boolean,
  answer: { status?: string; issues?: Issue[] },
): PreflightProblem[] {
  const issues = Array.isArray(answer.issues) ? answer.issues : [];
  const errors = issues.filter((i) => i.severity === "ERROR");
  const where = several ? ` (SKU ${sku})` : "";
  const problems = errors.map((i) => ({
    field: i.attributeNames?.length ? `attributes.${i.attributeNames[0]}` : "product",
    message: `${i.message ?? i.code ?? "invalid"}${where}`,
  }));
  if (problems.length === 0 && answer.status === "INVALID")
    problems.push({ field: "product", message: `Amazon found the listing invalid${where}` });
  return problems;
}

export async function amazonPreflight(
  context: ChannelContext<AmazonApp>,
  input: PreflightInput,
): Promise<PreflightProblem[]> {
  const { product, destination, signal } = input;
  const found = productPreflight(amazonProductProblems)(context, input);
  if (found.length > 0) return found;
  let settings: AmazonSettings;
  try {
    settings = amazonSettings(destination.settings);
  } catch {
    // The settings' problems are listed already (the registry checks them first).
    return [];
  }
  const token = await accessToken(context, destination.credentials, signal);
  if (typeof token !== "string") return [token];
  const api = requiredBaseUrl(CHANNEL, destination);
  const call = channelCaller(CHANNEL, signal, context.timeoutMs);
  let schema;
  try {
    schema = await productTypeSchema(call, api, token, settings);
  } catch (error) {
    if (error instanceof GiveUpChannelError && error.field === "productType")
      return [{ field: "settings.productType", message: error.channelMessage }];
    if (error instanceof GiveUpChannelError && error.kind === "validation")
      return [problemOf(error)];
    throw error;
  }
  // What the product type refuses, as the publish would give up on it (a required attribute the
  // product lacks: the product's own attribute of that name fills it).
  const built = listingItems(product, settings);
  const refused = productTypeProblems(built, schema, settings.productType);
  if (refused.length > 0) return attributeProblems(refused, built.length);
  const items = fitToProductType(built, schema, settings.productType);
  const problems: PreflightProblem[] = [];
  for (const item of items) {
    const answer = await previewAnswer(
      () =>
        call({
          method: "PUT",
          url: listingsItemUrl(api, settings, item.sku, {
            mode: "VALIDATION_PREVIEW",
            includedData: "issues",
          }),
          body: JSON.stringify(putBody(item, settings)),
          headers: { "x-amz-access-token": token, "content-type": "application/json" },
        }),
      signal,
    );
    problems.push(...issueProblems(item.sku, items.length > 1, jsonBody(CHANNEL, answer)));
  }
  return problems;
}
