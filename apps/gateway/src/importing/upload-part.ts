import type { FastifyReply, FastifyRequest } from "fastify";
import type { MultipartFile } from "@fastify/multipart";
import { ServiceError, invalid } from "@catalog/db";
import { unstorableText } from "@catalog/values";

/**
 * The multipart parser's complaint about the body as the client's 400: a body it cannot read (no
 * boundary in the Content-Type, a part or the body cut short before its closing boundary). Those
 * are plain Errors; what else reading an upload can throw keeps its meaning: errors with a status
 * (ours, the plugin's limits, a connection closed early) and the system's (a full disk, `code`).
 */
export function malformedMultipart(error: unknown): unknown {
  if (!(error instanceof Error) || "statusCode" in error || "code" in error) return error;
  return new ServiceError(400, `malformed multipart/form-data body: ${error.message}`);
}

/**
 * The part "file" of a document upload (POST /api/import/document, POST /api/imports), read
 * after the optional text parts; `missing` is the 422 when there is none. Its file name is kept
 * as the import's name, so one PostgreSQL cannot store is a 422 like any other such text.
 */
export async function documentFilePart(
  request: FastifyRequest,
  missing: string,
): Promise<MultipartFile> {
  const file = await request.file().catch((error: unknown) => {
    throw malformedMultipart(error);
  });
  if (!file || file.fieldname !== "file") throw invalid(missing);
  const unstorable = unstorableText(file.filename);
  if (unstorable) throw invalid(`multipart part "file": its file name ${unstorable.problem}`);
  return file;
}

/**
 * A text part sent before the part "file" (`persist`, `currency`, `encoding`), as sent; undefined
 * when absent.
 */
export function textPart(file: MultipartFile, name: string): string | undefined {
  const part = file.fields[name];
  return part && !Array.isArray(part) && part.type === "field" ? String(part.value) : undefined;
}

/**
 * Aborts, with a 400 saying `message`, when the client closes the connection before its answer is
 * written.
 */
export function abortWhenClientGoes(reply: FastifyReply, message: string): AbortSignal {
  const gone = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) gone.abort(new ServiceError(400, message));
  });
  return gone.signal;
}
