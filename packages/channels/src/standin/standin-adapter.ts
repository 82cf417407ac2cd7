// Publishes to the stand-in channel the way a real REST adapter would: update what we know,
// adopt what the channel already has under our SKU, and only then create, with an idempotency
// key so a worker that died after the channel created the listing cannot create it twice.
import type { ChannelAdapter, PublishableProduct, PublishInput, PublishOutcome } from "../adapter.js";
import { classifyChannelResponse, classifyNetworkError } from "../classify.js";
import { GiveUpChannelError, RetryableChannelError } from "../errors.js";

export interface StandinAdapterOptions {
  /** Budget for the whole publish (lookup + write), not per request. */
  timeoutMs?: number;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const CHANNEL = "standin";

/** "19.9900" -> "19.99", "20" -> "20.00"; significant digits are never dropped. */
export function toChannelAmount(amount: string): string {
  const [whole = "0", fraction = ""] = amount.trim().split(".");
  return `${whole}.${fraction.replace(/0+$/, "").padEnd(2, "0")}`;
}

function missing(field: string, product: PublishableProduct): GiveUpChannelError {
  const channelMessage = `${field} is required`;
  return new GiveUpChannelError(`${CHANNEL} needs a ${field}: product ${product.id} has none`, { channel: CHANNEL, kind: "validation", field, channelMessage });
}

export function standinListingBody(product: PublishableProduct, defaultCurrency: string | null): Record<string, unknown> {
  if (!product.title?.trim()) throw missing("title", product);
  if (!product.priceAmount?.trim()) throw missing("priceAmount", product);
  const currency = (product.priceCurrency ?? defaultCurrency)?.toUpperCase() ?? null;
  return {
    sku: product.sku,
    title: product.title,
    description: product.description,
    brand: product.brand,
    gtin: product.gtin,
    mpn: product.mpn,
    availability: product.availability ?? null,
    price: { amount: toChannelAmount(product.priceAmount), currency },
    images: product.images,
    variants: product.variants.map((v) => ({
      sku: v.sku ?? null,
      title: v.title ?? null,
      price: v.priceAmount ? { amount: toChannelAmount(v.priceAmount), currency } : null,
      options: v.options ?? {},
      gtin: v.gtin ?? null,
    })),
    attributes: product.attributes,
  };
}

function parseJson(answer: Answer): Record<string, unknown> {
  try {
    const body: unknown = JSON.parse(answer.text);
    if (body && typeof body === "object") return body as Record<string, unknown>;
  } catch {
    // fall through: a 2xx we cannot read is the channel's hiccup, worth another try
  }
  throw new RetryableChannelError(`${CHANNEL} answered ${answer.status} with an unreadable body`, { channel: CHANNEL, status: answer.status });
}

function outcomeOf(answer: Answer): PublishOutcome {
  const failure = classifyChannelResponse(CHANNEL, answer.status, answer.headers, answer.text);
  if (failure) throw failure;
  const body = parseJson(answer);
  if (typeof body.id !== "string") throw new RetryableChannelError(`${CHANNEL} answered ${answer.status} without a listing id`, { channel: CHANNEL, status: answer.status });
  return { remoteId: body.id, remoteUrl: typeof body.url === "string" ? body.url : null };
}

async function publish(input: PublishInput, timeoutMs: number): Promise<PublishOutcome> {
  const { product, destination } = input;
  const settingsCurrency = typeof destination.settings.currency === "string" ? destination.settings.currency : null;
  const body = JSON.stringify(standinListingBody(product, settingsCurrency));
  const baseUrl = destination.baseUrl?.trim().replace(/\/+$/, "");
  if (!baseUrl) throw new GiveUpChannelError(`${CHANNEL} destination ${destination.id} has no base URL`, { channel: CHANNEL, kind: "validation", field: "baseUrl" });
  const token = destination.credentials.token;
  if (typeof token !== "string" || !token) throw new GiveUpChannelError(`${CHANNEL} destination ${destination.id} has no access token`, { channel: CHANNEL, kind: "auth" });

  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([input.signal, timeout]);
  const call = async (method: string, path: string, withBody: boolean, extra: Record<string, string> = {}): Promise<Answer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json", ...extra };
    if (withBody) headers["content-type"] = "application/json";
    try {
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body: withBody ? body : undefined, signal });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      throw classifyNetworkError(CHANNEL, error, { timedOut: timeout.aborted && !input.signal.aborted, timeoutMs });
    }
  };
  const update = (id: string) => call("PUT", `/v1/listings/${encodeURIComponent(id)}`, true);

  if (input.remoteId) {
    const answer = await update(input.remoteId);
    // Deleted on the channel's side since we stored its id: publish it anew below.
    if (answer.status !== 404) return outcomeOf(answer);
  }
  if (product.sku) {
    const found = await call("GET", `/v1/listings?sku=${encodeURIComponent(product.sku)}`, false);
    const failure = classifyChannelResponse(CHANNEL, found.status, found.headers, found.text);
    if (failure) throw failure;
    const items = parseJson(found).items;
    const existing = Array.isArray(items) ? (items[0] as { id?: unknown } | undefined) : undefined;
    if (typeof existing?.id === "string") return outcomeOf(await update(existing.id));
  }
  return outcomeOf(await call("POST", "/v1/listings", true, { "idempotency-key": input.idempotencyKey }));
}

export function createStandinAdapter(options: StandinAdapterOptions = {}): ChannelAdapter {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return { channel: CHANNEL, publish: (input) => publish(input, timeoutMs) };
}
