// Amazon's dry run: the product's checks the adapter gives up with, then, when they pass and the
// settings are complete, Amazon's own verdict without creating anything: each SKU the publish
// would put is sent to putListingsItem with mode=VALIDATION_PREVIEW (Amazon validates the item
// against the product type and answers VALID or INVALID with its issues; nothing is stored), after
// the same product type definition check a publish makes. Needs the store's credentials.
import type { ChannelContext } from "../channel-definition.js";
import { channelCaller, jsonBody } from "../channel-http.js";
import { requiredBaseUrl } from "../destination-fields.js";
import { GiveUpChannelError } from "../errors.js";
import { problemOf, productPreflight, type PreflightInput, type PreflightProblem } from "../preflight.js";
import { throwIfAmazonFailed, type Issue } from "./amazon-answers.js";
import { listingItems } from "./amazon-attributes.js";
import { amazonProductProblems, listingsItemUrl, putBody } from "./amazon-checks.js";
import type { AmazonApp } from "./amazon-env.js";
import { fitToProductType, productTypeSchema } from "./amazon-product-type.js";
import { amazonSettings, type AmazonSettings } from "./amazon-settings.js";
import { requestLwaToken } from "./amazon-token.js";

const CHANNEL = "amazon";
/** An access token this close to its end is refreshed first (it lives an hour). */
const EXPIRY_MARGIN_MS = 60_000;

const reconnect = (why: string): PreflightProblem => ({ field: "destination", message: `${why}: connect the store again` });

/** An access token good for the preview: the stored one, or one from the refresh token (not stored: a dry run writes nothing). */
async function accessToken(context: ChannelContext<AmazonApp>, credentials: Record<string, unknown>, signal: AbortSignal): Promise<string | PreflightProblem> {
  const { accessToken: token, refreshToken, expiresAt } = credentials;
  const fresh = typeof token === "string" && token && !(typeof expiresAt === "number" && expiresAt < Date.now() + EXPIRY_MARGIN_MS);
  if (fresh) return token;
  if (typeof refreshToken !== "string" || !refreshToken) return reconnect("Amazon's validation preview needs the store's credentials, which are not at hand");
  try {
    return (await requestLwaToken(context.app, { grant_type: "refresh_token", refresh_token: refreshToken }, signal, context.timeoutMs)).accessToken;
  } catch (error) {
    if (error instanceof GiveUpChannelError && error.kind === "auth") return reconnect(`Amazon refused the store's token (${error.channelMessage})`);
    throw error;
  }
}

/** Each ERROR issue of a preview as a problem, named by its attribute (the product's attributes carry Amazon's names). */
function issueProblems(sku: string, several: boolean, answer: { status?: string; issues?: Issue[] }): PreflightProblem[] {
  const issues = Array.isArray(answer.issues) ? answer.issues : [];
  const errors = issues.filter((i) => i.severity === "ERROR");
  const where = several ? ` (SKU ${sku})` : "";
  const problems = errors.map((i) => ({
    field: i.attributeNames?.length ? `attributes.${i.attributeNames[0]}` : "product",
    message: `${i.message ?? i.code ?? "invalid"}${where}`,
  }));
  if (problems.length === 0 && answer.status === "INVALID") problems.push({ field: "product", message: `Amazon found the listing invalid${where}` });
  return problems;
}

export async function amazonPreflight(context: ChannelContext<AmazonApp>, input: PreflightInput): Promise<PreflightProblem[]> {
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
  let items;
  try {
    items = fitToProductType(listingItems(product, settings), await productTypeSchema(call, api, token, settings), settings.productType);
  } catch (error) {
    if (error instanceof GiveUpChannelError && error.field === "productType") return [{ field: "settings.productType", message: error.channelMessage }];
    // A required attribute the product lacks: the product's own attribute of that name fills it.
    if (error instanceof GiveUpChannelError && error.kind === "validation") return [error.field ? { field: `attributes.${error.field}`, message: error.channelMessage } : problemOf(error)];
    throw error;
  }
  const problems: PreflightProblem[] = [];
  for (const item of items) {
    const answer = await call({
      method: "PUT", url: listingsItemUrl(api, settings, item.sku, { mode: "VALIDATION_PREVIEW", includedData: "issues" }),
      body: JSON.stringify(putBody(item, settings)), headers: { "x-amz-access-token": token, "content-type": "application/json" },
    });
    throwIfAmazonFailed(answer);
    problems.push(...issueProblems(item.sku, items.length > 1, jsonBody(CHANNEL, answer) as { status?: string; issues?: Issue[] }));
  }
  return problems;
}
