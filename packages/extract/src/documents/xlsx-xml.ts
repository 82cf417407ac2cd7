import { TextDecoder } from "node:util";
import { SaxesParser } from "saxes";
import type yauzl from "yauzl";

/**
 * What a part's reader is told, element names without their namespace prefix ("x:row" is "row").
 */
export interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void;
  /** Character data, CDATA sections included, in pieces. */
  text(text: string): void;
  close(name: string): void;
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Streams one ZIP entry through a strict XML parser (saxes: any well-formedness error, an
 * undeclared entity or a DTD entity is an error naming the part, line and column, never
 * expanded). Yields after each inflated chunk has been parsed, so the caller can hand on what
 * the handlers collected before more is read: a sheet is read only as fast as its rows are taken.
 */
export async function* xmlPart(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  handlers: XmlHandlers,
): AsyncGenerator<void> {
  const parser = new SaxesParser<{ xmlns: false; fileName: string }>({
    xmlns: false,
    fileName: entry.fileName,
  });
  parser.on("opentag", (tag) => {
    handlers.open(localName(tag.name), tag.attributes);
  });
  parser.on("closetag", (tag) => {
    handlers.close(localName(tag.name));
  });
  parser.on("text", (text) => {
    handlers.text(text);
  });
  parser.on("cdata", (text) => {
    handlers.text(text);
  });
  const stream = await zip.openReadStreamPromise(entry);
  let decoder: TextDecoder | null = null;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      decoder ??= new TextDecoder(utf16(chunk) ?? "utf-8", { fatal: true });
      parser.write(decoder.decode(chunk, { stream: true }));
      yield;
    }
    parser.write((decoder ?? new TextDecoder()).decode());
    parser.close();
  } catch (error) {
    // Checked by its code: TextDecoder's TypeError may come from another realm (a VM context).
    if (
      typeof error === "object" &&
      error !== null &&
      "code" in error &&
      error.code === "ERR_ENCODING_INVALID_ENCODED_DATA"
    ) {
      throw new Error(`${entry.fileName} is not valid ${decoder?.encoding ?? "utf-8"} text`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    stream.destroy();
  }
}

/** XML parts are UTF-8 unless a byte-order mark says UTF-16. */
function utf16(head: Buffer): string | null {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return null;
}
