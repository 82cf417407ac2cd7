// Turns page bytes into text the way browsers pick an encoding: BOM, then the Content-Type
// charset, then a <meta> in the first bytes, then UTF-8 (what nearly every shop uses now).

export interface ContentType {
  mediaType: string;
  charset?: string;
}

export function parseContentType(header: string | undefined): ContentType | undefined {
  if (!header) return undefined;
  const [type = "", ...params] = header.split(";");
  const mediaType = type.trim().toLowerCase();
  if (!mediaType) return undefined;
  const charsetParam = params.map((p) => p.trim()).find((p) => /^charset\s*=/i.test(p));
  const charset = charsetParam
    ?.split("=")[1]
    ?.trim()
    .replace(/^["']|["']$/g, "");
  return charset ? { mediaType, charset } : { mediaType };
}

/** For servers that send no Content-Type: does the body start like an HTML document? */
export function looksLikeHtml(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 512)
    .toString("latin1")
    .replace(/^\xEF\xBB\xBF/, "")
    .trimStart()
    .toLowerCase();
  return /^<(!doctype html|html|head|body|!--)/.test(head);
}

// Node's TextDecoder decodes windows-1252 as plain latin1 (0x80-0x9F come out as C1 controls),
// so those 32 bytes are mapped by hand; the rest of windows-1252 is latin1.
const CP1252_HIGH =
  "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F" +
  "\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178";

function decodeWindows1252(bytes: Buffer): string {
  return bytes
    .toString("latin1")
    .replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

/** The WHATWG name for `label`, or undefined when it names no encoding we can decode. */
function encodingFor(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

function fromBom(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

function fromMeta(bytes: Buffer): string | undefined {
  // Covers <meta charset=x> and <meta http-equiv=Content-Type content="text/html; charset=x">.
  const head = bytes.subarray(0, 1024).toString("latin1");
  const match = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:+-]+)/i.exec(head);
  const found = encodingFor(match?.[1]);
  // A page that reached us as bytes cannot really be UTF-16 if its ASCII <meta> was readable.
  return found?.startsWith("utf-16") ? "utf-8" : found;
}

export function decodeHtml(bytes: Buffer, contentType: ContentType | undefined): string {
  const encoding =
    fromBom(bytes) ?? encodingFor(contentType?.charset) ?? fromMeta(bytes) ?? "utf-8";
  if (encoding === "windows-1252") return decodeWindows1252(bytes);
  // TextDecoder drops a BOM that matches the encoding.
  return new TextDecoder(encoding).decode(bytes);
}
