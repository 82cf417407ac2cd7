import { DocumentTooLargeError } from "./document-errors.js";

export type ByteInput = AsyncIterable<Buffer> | NodeJS.ReadableStream;

/**
 * Yields the input's bytes and throws DocumentTooLargeError as soon as more than `maxBytes`
 * have arrived. Throwing inside the `for await` makes it call the input's `return()`, which for
 * a Node stream destroys it: the rest of an oversized upload is never read.
 */
export async function* limitBytes(input: ByteInput, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of input as AsyncIterable<Buffer | Uint8Array | string>) {
    const bytes =
      typeof chunk === "string"
        ? Buffer.from(chunk)
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    total += bytes.length;
    if (total > maxBytes) throw new DocumentTooLargeError(maxBytes);
    if (bytes.length > 0) yield bytes;
  }
}

export interface HeadAndRest {
  /** At least `size` bytes, unless the whole input is shorter. */
  head: Buffer;
  /** Every byte of the input, `head` first. Iterate it at most once. */
  chunks: AsyncIterable<Buffer>;
  /** Stops the source early (when the document is refused after sniffing). */
  close: () => Promise<void>;
}

/** Reads enough of the input to sniff its format, without losing those bytes for the parser. */
export async function readHead(source: AsyncIterable<Buffer>, size: number): Promise<HeadAndRest> {
  const it = source[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let length = 0;
  let finished = false;
  while (length < size) {
    const next = await it.next();
    if (next.done) {
      finished = true;
      break;
    }
    parts.push(next.value);
    length += next.value.length;
  }
  const head = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  const close = async () => {
    if (!finished) {
      finished = true;
      await it.return?.();
    }
  };
  async function* all(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    try {
      while (!finished) {
        const next = await it.next();
        if (next.done) {
          finished = true;
          return;
        }
        yield next.value;
      }
    } finally {
      await close();
    }
  }
  return { head, chunks: all(), close };
}
