/**
 * Whole-document failures. Each class carries the HTTP status the upload route should answer
 * with, so the route maps errors without knowing parser details. Messages are shown to the
 * uploader: they name the problem and what to do about it.
 */
export abstract class DocumentError extends Error {
  abstract readonly status: number;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the encoding the uploader named is not one that can be read. */
export class UnknownEncodingError extends DocumentError {
  readonly status = 400;

  constructor(readonly encoding: string) {
    super(
      `"${encoding.slice(0, 40)}" is not a text encoding that can be read here; name one such as utf-8, windows-1252, windows-1251, ` +
        "windows-1250, iso-8859-2, shift_jis, gb18030 or euc-kr, or leave it out to have it detected",
    );
  }
}

/** 415: not CSV, TSV, XLSX, JSON, NDJSON or XML. */
export class UnsupportedDocumentError extends DocumentError {
  readonly status = 415;
}

/** 413: more than `maxBytes` arrived; reading stopped there. */
export class DocumentTooLargeError extends DocumentError {
  readonly status = 413;

  constructor(readonly maxBytes: number) {
    super(
      `the file is larger than the ${formatBytes(maxBytes)} limit; split it into smaller files`,
    );
  }
}

/** 422: nothing to import (empty file, header only, no product rows). */
export class EmptyDocumentError extends DocumentError {
  readonly status = 422;
}

/**
 * 413 (422 for JSON nesting): the document goes past one of the limits in document-limits.ts;
 * the message names the limit and its value.
 */
export class DocumentLimitError extends DocumentError {
  constructor(
    readonly limit: string,
    readonly status: 413 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** 422: the right kind of file, but broken (invalid JSON, damaged or hostile XLSX, ...). */
export class MalformedDocumentError extends DocumentError {
  readonly status = 422;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
