import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, open, readdir, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ServiceError } from "@catalog/db";
import { malformedMultipart } from "./upload-part.js";

/**
 * Spool directories are named for the process that made them (pid and a random tag, since a
 * restarted container's gateway has the same pid every time), so that start-up can tell a dead
 * process's leftovers from a live neighbour's.
 */
const OWNER = `${process.pid}-${randomBytes(4).toString("hex")}`;
const PREFIX = "catalog-upload-";

export interface Spool {
  /** The upload, as written. */
  readonly path: string;
  /** The spool's own directory: the parser's temporary files go here too. */
  readonly dir: string;
  readonly bytes: number;
  /** Starts the answer file: written as the import goes, read back once it is complete. */
  answer(): Promise<AnswerFile>;
  /** Removes the upload and everything else in the spool; safe to call more than once. */
  remove(): Promise<void>;
}

export interface AnswerFile {
  write(text: string): Promise<void>;
  /**
   * The finished answer as a stream. The file is open before this returns, so the spool can be
   * removed at once: the open descriptor keeps the data readable until the stream ends.
   */
  read(): Promise<Readable>;
}

/**
 * Writes an upload to a private directory under `root`, refusing it (413) past `maxBytes`, so
 * that it can be parsed from disk (in another thread) without being held in memory.
 */
export async function spoolUpload(
  source: NodeJS.ReadableStream,
  maxBytes: number,
  root: string,
): Promise<Spool> {
  const dir = await mkdtemp(join(root, `${PREFIX}${OWNER}-`));
  const path = join(dir, "upload");
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes)
        callback(new ServiceError(413, `the file is larger than the limit of ${maxBytes} bytes`));
      else callback(null, chunk);
    },
  });
  let writing: FileHandle | null = null;
  const remove = async () => {
    await writing?.close().catch(() => undefined);
    writing = null;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await pipeline(source, cap, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    await remove();
    // A body cut short is the client's 400; the cap's 413 and the disk's errors pass through.
    throw malformedMultipart(error);
  }
  const answer = async (): Promise<AnswerFile> => {
    const file = join(dir, "answer.json");
    writing = await open(file, "w", 0o600);
    const handle = writing;
    return {
      write: async (text) => {
        await handle.write(text);
      },
      read: async () => {
        await handle.close();
        writing = null;
        return (await open(file, "r")).createReadStream();
      },
    };
  };
  return { path, dir, bytes, remove, answer };
}

/**
 * Removes the spools that processes which are gone left behind (a gateway that crashed or was
 * killed mid-import). Spools of live processes, this one included, are kept.
 */
export async function removeStaleSpools(root: string): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const owner = new RegExp(`^${PREFIX}(\\d+)-([0-9a-f]{8})-`).exec(name);
      if (!owner || isLive(Number(owner[1]), owner[2]!)) return;
      await rm(join(root, name), { recursive: true, force: true });
    }),
  );
}

function isLive(pid: number, tag: string): boolean {
  if (pid === process.pid) return `${pid}-${tag}` === OWNER;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
