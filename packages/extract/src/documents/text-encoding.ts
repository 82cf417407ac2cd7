import { isAscii, isUtf8 } from "node:buffer";
import { analyse } from "chardet";
import iconv from "iconv-lite";
import { readability } from "./text-plausibility.js";

/** How an encoding was chosen: named by the uploader, or read from the bytes. */
export type EncodingSource = "named" | "detected";

export interface EncodingChoice {
  /** A lower-case name iconv-lite decodes: "utf-8", "windows-1251", "shift_jis", "gb18030". */
  name: string;
  source: EncodingSource;
}

/** Bytes the decision looks at: the first 64 KiB of the text that is not plain ASCII. */
export const SAMPLE_BYTES = 64 * 1024;

// Preferred names, first wins among names iconv-lite reads with the same codec ("euc-kr" and
// "cp949" are one codec there). Anything else is reported as the uploader spelled it.
const PREFERRED_NAMES = [
  "utf-8",
  "utf-16le",
  "utf-16be",
  "utf-16",
  "utf-32le",
  "utf-32be",
  "utf-32",
  "windows-1250",
  "windows-1251",
  "windows-1252",
  "windows-1253",
  "windows-1254",
  "windows-1255",
  "windows-1256",
  "windows-1257",
  "windows-1258",
  "windows-874",
  "iso-8859-1",
  "iso-8859-2",
  "iso-8859-3",
  "iso-8859-4",
  "iso-8859-5",
  "iso-8859-6",
  "iso-8859-7",
  "iso-8859-8",
  "iso-8859-9",
  "iso-8859-10",
  "iso-8859-11",
  "iso-8859-13",
  "iso-8859-14",
  "iso-8859-15",
  "iso-8859-16",
  "koi8-r",
  "koi8-u",
  "ibm866",
  "macintosh",
  "shift_jis",
  "euc-jp",
  "gb18030",
  "gbk",
  "gb2312",
  "euc-kr",
  "big5",
  "us-ascii",
];
/**
 * Names iconv-lite knows that are not text encodings: decoding a document with them makes no sense.
 */
const NOT_TEXT = new Set(["base64", "base64url", "hex"]);

let preferredByCodec: Map<string, string> | null = null;

/**
 * iconv-lite's own key for the codec a name resolves to, following its aliases; null if unknown.
 */
function codecKey(name: string): string | null {
  if (!iconv.encodingExists(name)) return null;
  const table = iconv.encodings as Record<string, unknown>;
  let key = iconv._canonicalizeEncoding(name);
  for (let i = 0; i < 10 && typeof table[key] === "string"; i++) key = table[key] as string;
  return key;
}

/**
 * The name to use for an encoding an uploader named ("CP1251" is "windows-1251", "SJIS" is
 * "shift_jis"), or null when iconv-lite cannot decode it (or it is not a text encoding).
 */
export function encodingName(name: string): string | null {
  const trimmed = name.trim().toLowerCase();
  if (trimmed === "" || trimmed.length > 40) return null;
  const key = codecKey(trimmed);
  if (key === null || NOT_TEXT.has(key)) return null;
  if (!preferredByCodec) {
    preferredByCodec = new Map();
    for (const preferred of PREFERRED_NAMES) {
      const k = codecKey(preferred);
      if (k !== null && !preferredByCodec.has(k)) preferredByCodec.set(k, preferred);
    }
  }
  return preferredByCodec.get(key) ?? trimmed;
}

export interface DetectOptions {
  /**
   * Legacy code pages are considered (CSV/TSV). Without, the text is UTF-8 or UTF-16, as
   * RFC 8259 has JSON.
   */
  legacy: boolean;
  /** The sample is the start of the file, so a BOM or UTF-16's zero bytes may show there. */
  atStart: boolean;
}

/**
 * The encoding the sample shows, or null when it shows none: plain ASCII reads the same in
 * every encoding considered here, so it is no evidence (the caller looks further, or takes
 * UTF-8). In order: a BOM; UTF-16 without one (zero bytes in every other position of mostly
 * ASCII text); valid UTF-8; UTF-8 apart from a few stray bytes (multi-byte sequences that are
 * valid far outnumber the bytes that are not: legacy text almost never forms valid sequences);
 * then, for legacy text, the detector's best answer that iconv-lite decodes and that reads as
 * plausible text.
 */
export function detectEncoding(sample: Buffer, options: DetectOptions): string | null {
  if (options.atStart) {
    if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return "utf-8";
    if (sample[0] === 0xff && sample[1] === 0xfe) return "utf-16le";
    if (sample[0] === 0xfe && sample[1] === 0xff) return "utf-16be";
    const utf16 = utf16WithoutBom(sample);
    if (utf16) return utf16;
  }
  if (isPlainAscii(sample)) return null;
  if (isUtf8(sample.subarray(0, sample.length - utf8TailLength(sample)))) return "utf-8";
  const { good, bad } = utf8Evidence(sample);
  if (bad === 0 || good >= 4 * bad) return "utf-8";
  if (!options.legacy) return "utf-8";
  return detectLegacy(sample);
}

function utf16WithoutBom(sample: Buffer): "utf-16le" | "utf-16be" | null {
  const head = sample.subarray(0, 1024 & ~1);
  if (head.length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] !== 0) continue;
    if (i % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  const half = head.length / 2;
  if (oddZeros > half * 0.4 && evenZeros < half * 0.05) return "utf-16le";
  if (evenZeros > half * 0.4 && oddZeros < half * 0.05) return "utf-16be";
  return null;
}

/** No byte above 0x7f and no zero byte (a zero byte is UTF-16, or binary). */
export function isPlainAscii(bytes: Buffer): boolean {
  return isAscii(bytes) && bytes.indexOf(0) < 0;
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

/**
 * Valid multi-byte UTF-8 sequences and invalid bytes in `bytes` (each invalid byte counts once;
 * a sequence cut short by the end of the sample counts as neither).
 */
export function utf8Evidence(bytes: Buffer): { good: number; bad: number } {
  let good = 0;
  let bad = 0;
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min = 0x80;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) min = 0xa0;
      else if (b === 0xed) max = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) min = 0x90;
      else if (b === 0xf4) max = 0x8f;
    } else {
      bad++;
      i++;
      continue;
    }
    let ok = true;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return { good, bad }; // cut short by the end of the sample
      if (c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      good++;
      i += need + 1;
    } else {
      bad++;
      i++;
    }
  }
  return { good, bad };
}

// The detector (chardet, a port of ICU's) names these as browsers label them; the ISO sets it
// reports when it saw no byte in 0x80-0x9f are read as their Windows supersets, as browsers do.
const DETECTED_AS: Record<string, string> = {
  "iso-8859-1": "windows-1252",
  "iso-8859-9": "windows-1254",
};
/**
 * Answers the detector can give that are settled before it is asked (BOM, zero bytes, UTF-8
 * checks).
 */
const NOT_ASKED = /^(utf-|ascii|iso-2022)/;
/** Encodings of two (or more) bytes a character. */
const MULTI_BYTE = new Set(["shift_jis", "euc-jp", "gb18030", "euc-kr", "big5"]);

/**
 * Code pages tried besides the detector's answers: what spreadsheet programs save CSV in across
 * Europe.
 */
const COMMON_SINGLE_BYTE = [
  "windows-1252",
  "windows-1250",
  "iso-8859-2",
  "windows-1251",
  "koi8-r",
  "windows-1253",
  "windows-1254",
  "windows-1257",
];

/**
 * The detector's answers (in order of confidence) and the common code pages, each decoded: the
 * one that reads most like words wins (text-plausibility.ts), the detector's order breaking ties.
 * The detector's statistics alone are easily fooled on short files (two rows of Russian in
 * windows-1251 score as windows-1252; Polish in windows-1250 can score as Big5), and a
 * double-byte reading whose CJK characters sit inside Latin words ("pod菏ietlenie") is not text.
 * Without any candidate, windows-1252 (what Excel on Windows writes in Western Europe and the
 * Americas).
 */
function detectLegacy(sample: Buffer): string {
  const names: string[] = [];
  for (const match of analyse(sample)) {
    const lower = match.name.toLowerCase();
    const name = DETECTED_AS[lower] ?? lower;
    if (
      match.confidence <= 0 ||
      NOT_ASKED.test(name) ||
      names.includes(name) ||
      !encodingName(name)
    )
      continue;
    names.push(name);
  }
  for (const name of COMMON_SINGLE_BYTE) if (!names.includes(name)) names.push(name);
  // Reading each candidate is the costly part: 16 KiB of text holds words enough.
  const scored = sample.subarray(0, 16 * 1024);
  let best: { name: string; score: number } | null = null;
  for (const name of names) {
    // write() without end(): a character cut short by the end of the sample is not a fault.
    const text = iconv.getDecoder(name).write(scored);
    if (MULTI_BYTE.has(name) && !plausibleCjk(text)) continue;
    const score = readability(text) - 3 * count(text, "\ufffd");
    if (!best || score > best.score) best = { name, score };
  }
  return best ? encodingName(best.name)! : "windows-1252";
}

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/**
 * Text read with a double-byte encoding is CJK: its ideographs, kana and hangul (U+2E80 and
 * up) seldom stand right before a lower-case Latin letter. When Latin text in a single-byte code
 * page is misread so, nearly every such character swallowed a letter of a Latin word.
 */
function plausibleCjk(text: string): boolean {
  let cjk = 0;
  let glued = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x2e80 || c === 0xfffd) continue;
    cjk++;
    const next = text.charCodeAt(i + 1);
    if (next >= 0x61 && next <= 0x7a) glued++;
  }
  return cjk > 0 && glued <= cjk * 0.2;
}

/** Decodes a whole (small) buffer, for sniffing. Drops a BOM. */
export function decodeSample(bytes: Buffer, encoding: string): string {
  return streamingDecoder(encoding).write(bytes);
}

// Node's own decoders for UTF-8 and UTF-16 (the same results: U+FFFD for what is invalid, a BOM
// dropped) are about twice as fast as iconv-lite's on text that is not ASCII.
const NATIVE = new Set(["utf-8", "utf-16le", "utf-16be"]);

/** A streaming decoder: `write` returns what is complete so far, `end` the rest. */
function streamingDecoder(encoding: string): iconv.DecoderStream {
  if (NATIVE.has(encoding)) {
    const decoder = new TextDecoder(encoding);
    return {
      write: (bytes: Buffer) => decoder.decode(bytes, { stream: true }),
      end: () => decoder.decode(),
    };
  }
  const nearLatin1 = latin1Patch(encoding);
  if (nearLatin1) return { write: nearLatin1, end: () => "" };
  return iconv.getDecoder(encoding);
}

const patches = new Map<string, ((bytes: Buffer) => string) | null>();

/**
 * For a single-byte code page that differs from Latin-1 in a few bytes only (windows-1252 in
 * 0x80-0x9f, iso-8859-15 in eight), Node's native Latin-1 decoding patched in those bytes: the
 * same text as iconv-lite's, several times faster. Null for any other encoding.
 */
function latin1Patch(encoding: string): ((bytes: Buffer) => string) | null {
  if (patches.has(encoding)) return patches.get(encoding)!;
  let patch: ((bytes: Buffer) => string) | null = null;
  if (
    codecKey(encoding) !== null &&
    (iconv.getCodec(encoding) as { decodeBuf?: unknown }).decodeBuf
  ) {
    const all = Buffer.alloc(256);
    for (let i = 0; i < 256; i++) all[i] = i;
    const table = iconv.decode(all, encoding);
    const differs: Record<string, string> = {};
    let count = 0;
    for (let i = 0; i < 256; i++)
      if (table.charCodeAt(i) !== i) {
        differs[String.fromCharCode(i)] = table[i]!;
        count++;
      }
    if (table.length === 256 && count <= 40) {
      const pattern =
        count === 0
          ? null
          : new RegExp(
              `[${Object.keys(differs)
                .map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
                .join("")}]`,
              "g",
            );
      patch = (bytes) => {
        const text = bytes.toString("latin1");
        if (!pattern) return text;
        pattern.lastIndex = 0;
        return pattern.test(text) ? text.replace(pattern, (c) => differs[c]!) : text;
      };
    }
  }
  patches.set(encoding, patch);
  return patch;
}

export interface TextDecodingOptions {
  /** The uploader's encoding (already checked with `encodingName`): used as it is. */
  named: string | null;
  /**
   * What the start of the file showed (`detectEncoding` with `atStart`), or null for no evidence.
   */
  head: string | null;
  legacy: boolean;
  /** Called once, when the encoding is settled (at the latest when the input ends). */
  onChoice?: (choice: EncodingChoice) => void;
}

/**
 * Decodes a document's bytes chunk by chunk in one encoding for the whole file (characters split
 * across chunks are joined): iconv-lite for legacy encodings, Node's TextDecoder for UTF-8/16. When
 * the start of the file is plain ASCII, the decision waits for the first bytes that are not (the
 * first "é" in row 5,000), and is made on a sample from there: until then every candidate reads the
 * text the same. Bytes the encoding cannot decode come out as U+FFFD; `replaced` says one has, so
 * the rows holding one can be reported.
 */
export class TextDecoding {
  choice: EncodingChoice | null = null;
  /** A U+FFFD has come out: bytes not valid in the encoding (or a U+FFFD already in the file). */
  replaced = false;

  constructor(private readonly options: TextDecodingOptions) {}

  async *decode(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
    const { named, head, legacy } = this.options;
    let decoder: iconv.DecoderStream | null = null;
    if (named) decoder = this.settle({ name: named, source: "named" });
    if (!decoder && head) decoder = this.settle({ name: head, source: "detected" });
    let held: Buffer[] = [];
    let heldBytes = 0;
    /** Plain ASCII has been passed on: a sample taken now is not the start of the file. */
    let pastStart = false;
    for await (const chunk of chunks) {
      if (decoder) {
        const text = decoder.write(chunk);
        if (text) yield this.check(text);
        continue;
      }
      if (heldBytes === 0 && isPlainAscii(chunk)) {
        pastStart = true;
        yield chunk.toString("latin1");
        continue;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < SAMPLE_BYTES) continue;
      const sample = Buffer.concat(held);
      held = [];
      decoder = this.settle({
        name: detectEncoding(sample, { legacy, atStart: !pastStart }) ?? "utf-8",
        source: "detected",
      });
      const text = decoder.write(sample);
      if (text) yield this.check(text);
    }
    if (!decoder) {
      const sample = Buffer.concat(held);
      decoder = this.settle({
        name: detectEncoding(sample, { legacy, atStart: !pastStart }) ?? "utf-8",
        source: "detected",
      });
      const text = decoder.write(sample);
      if (text) yield this.check(text);
    }
    const rest = decoder.end();
    if (rest) yield this.check(rest);
  }

  private settle(choice: EncodingChoice): iconv.DecoderStream {
    this.choice = choice;
    this.options.onChoice?.(choice);
    return streamingDecoder(choice.name);
  }

  private check(text: string): string {
    if (!this.replaced && text.includes("\ufffd")) this.replaced = true;
    return text;
  }
}
