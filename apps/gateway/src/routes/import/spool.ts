import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ServiceError } from "@catalog/db";

/**
 * Writes an upload to a private temporary file, refusing it (413) past `maxBytes`, so that it
 * can be read more than once (checked whole before anything is stored, then imported) without
 * being held in memory.
 */
export async function spoolUpload(source: NodeJS.ReadableStream, maxBytes: number) {
  const dir = await mkdtemp(join(tmpdir(), "catalog-upload-"));
  const path = join(dir, "upload");
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new ServiceError(413, `the file is larger than the limit of ${maxBytes} bytes`));
      else callback(null, chunk);
    },
  });
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(source, cap, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    await remove();
    throw error;
  }
  return { bytes, open: () => createReadStream(path), remove };
}
