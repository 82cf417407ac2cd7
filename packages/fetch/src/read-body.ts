import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { FetchFailedError } from "./errors.js";

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

function tooLarge(url: string, maxBytes: number): FetchFailedError {
  return new FetchFailedError(url, `${url} is larger than ${maxBytes} bytes`);
}

/** Reads the raw (still encoded) body, giving up as soon as it passes `maxBytes`. */
export async function readCapped(
  response: IncomingMessage,
  url: string,
  maxBytes: number,
): Promise<Buffer> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(url, maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      throw tooLarge(url, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/** Reads at most `limit` bytes of the body and drops the rest (for answers only glanced at). */
export async function readUpTo(response: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= limit) {
      response.destroy();
      break;
    }
  }
  return Buffer.concat(chunks, total).subarray(0, limit);
}

// The encoded body is already capped, so decoding all at once costs little; maxOutputLength
// stops a small compressed body from expanding past the cap (compression bombs), and
// Z_SYNC_FLUSH accepts a truncated stream the way browsers do.
async function decodeOne(coding: string, input: Buffer, maxBytes: number): Promise<Buffer> {
  const options = { maxOutputLength: maxBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return gunzip(input, options);
    case "deflate":
      // "deflate" is meant to be zlib-wrapped, but many servers send raw deflate.
      return inflate(input, options).catch((error: unknown) => {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw error;
        return inflateRaw(input, options);
      });
    case "br":
      return brotli(input, { maxOutputLength: maxBytes });
    case "identity":
    case "":
      return input;
    default:
      throw Object.assign(new Error(`unsupported content encoding ${coding}`), {
        code: "EUNSUPPORTED",
      });
  }
}

/** Undoes Content-Encoding (gzip, deflate, br, in the order listed), keeping the size cap. */
export async function decodeContent(
  raw: Buffer,
  contentEncoding: string | undefined,
  url: string,
  maxBytes: number,
): Promise<Buffer> {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean)
    .reverse();
  let body = raw;
  for (const coding of codings) {
    try {
      body = await decodeOne(coding, body, maxBytes);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(url, maxBytes);
      const why =
        code === "EUNSUPPORTED"
          ? `uses an unsupported compression (${coding})`
          : `sent a corrupt ${coding} body`;
      throw new FetchFailedError(url, `${url} ${why}; try again later`, undefined, {
        cause: error,
        transient: true,
      });
    }
  }
  if (body.length > maxBytes) throw tooLarge(url, maxBytes);
  return body;
}
