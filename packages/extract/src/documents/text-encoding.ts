import { isUtf8 } from "node:buffer";

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/**
 * BOMs decide first; UTF-16 without a BOM shows as zero bytes in every other position of mostly
 * ASCII text; otherwise UTF-8 unless the bytes are not valid UTF-8, which in practice means a
 * spreadsheet saved by Excel on Windows in the legacy code page.
 */
export function detectEncoding(head: Buffer): TextEncodingName {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf-8";
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  const sample = head.subarray(0, 1024 & ~1);
  if (sample.length >= 4) {
    let evenZeros = 0;
    let oddZeros = 0;
    for (let i = 0; i < sample.length; i++) if (sample[i] === 0) i % 2 === 0 ? evenZeros++ : oddZeros++;
    const half = sample.length / 2;
    if (oddZeros > half * 0.4 && evenZeros < half * 0.05) return "utf-16le";
    if (evenZeros > half * 0.4 && oddZeros < half * 0.05) return "utf-16be";
  }
  return isUtf8(head.subarray(0, head.length - utf8TailLength(head))) ? "utf-8" : "windows-1252";
}

/** Decodes a whole (small) buffer, for sniffing. Drops a BOM. */
export function decodeHead(head: Buffer, encoding: TextEncodingName): string {
  if (encoding === "windows-1252") return decodeWindows1252(head);
  return new TextDecoder(encoding).decode(head);
}

/**
 * Decodes chunk by chunk (characters split across chunks are joined). A UTF-8 file whose first
 * bytes were plain ASCII can still turn out to be windows-1252 further down (the first "é" in
 * row 5,000): from the first invalid chunk on, the rest is decoded as windows-1252.
 */
export async function* decodeText(chunks: AsyncIterable<Buffer>, encoding: TextEncodingName): AsyncGenerator<string> {
  if (encoding === "windows-1252") {
    for await (const chunk of chunks) yield decodeWindows1252(chunk);
    return;
  }
  const decoder = new TextDecoder(encoding, encoding === "utf-8" ? { fatal: true } : {});
  let legacy = false;
  let heldBack: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    if (legacy) { yield decodeWindows1252(chunk); continue; }
    try {
      const text = decoder.decode(chunk, { stream: true });
      if (encoding === "utf-8") heldBack = tailOf(heldBack, chunk);
      if (text) yield text;
    } catch {
      legacy = true;
      yield decodeWindows1252(Buffer.concat([heldBack, chunk]));
    }
  }
  if (!legacy) {
    try {
      const rest = decoder.decode();
      if (rest) yield rest;
    } catch {
      yield decodeWindows1252(heldBack);
    }
  }
}

/** The bytes the streaming UTF-8 decoder is still holding after `chunk` (an unfinished character). */
function tailOf(previous: Buffer, chunk: Buffer): Buffer {
  const joined = chunk.length >= 3 ? chunk : Buffer.concat([previous, chunk]);
  const n = utf8TailLength(joined);
  return n === 0 ? Buffer.alloc(0) : Buffer.from(joined.subarray(joined.length - n));
}

/** Length of an incomplete multi-byte UTF-8 sequence at the end of `bytes` (0 if none). */
function utf8TailLength(bytes: Buffer): number {
  for (let i = 1; i <= Math.min(3, bytes.length); i++) {
    const byte = bytes[bytes.length - i]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > i ? i : 0;
  }
  return 0;
}

// Node 20's TextDecoder("windows-1252") decodes as Latin-1 (0x80 -> U+0080 rather than "€"),
// so the 32 code points where the two differ are mapped here.
const CP1252_80_9F =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

export function decodeWindows1252(bytes: Buffer): string {
  const text = bytes.toString("latin1");
  return /[\x80-\x9f]/.test(text) ? text.replace(/[\x80-\x9f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!) : text;
}
