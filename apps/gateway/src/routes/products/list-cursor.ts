import { invalid, type ListPosition } from "@catalog/db";

/** Where a cursor leads: the page `page`, just after or just before a position. */
export interface ListCursor {
  direction: "next" | "previous";
  page: number;
  from: ListPosition;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_PAGE = 100_000;

/**
 * An opaque token for the client: base64url of `[1, "n"|"p", page, updatedAt ms, id]`. It names a
 * position, not a filter: sent with another `q` it still seeks from there.
 */
export function encodeCursor(cursor: ListCursor): string {
  const { direction, page, from } = cursor;
  const fields = [1, direction === "next" ? "n" : "p", page, from.updatedAt.getTime(), from.id];
  return Buffer.from(JSON.stringify(fields)).toString("base64url");
}

/** The cursor a client sent back; anything this service did not make is a 422. */
export function decodeCursor(token: string): ListCursor {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    fields = null;
  }
  if (Array.isArray(fields) && fields.length === 5) {
    const [version, direction, page, ms, id] = fields as unknown[];
    if (
      version === 1 &&
      (direction === "n" || direction === "p") &&
      Number.isInteger(page) &&
      (page as number) >= 1 &&
      (page as number) <= MAX_PAGE &&
      Number.isInteger(ms) &&
      Math.abs(ms as number) <= 8.64e15 &&
      typeof id === "string" &&
      UUID.test(id)
    )
      return {
        direction: direction === "n" ? "next" : "previous",
        page: page as number,
        from: { updatedAt: new Date(ms as number), id },
      };
  }
  throw invalid(
    'query parameter "cursor" is not a cursor of this list: send back a nextCursor or prevCursor exactly as a list answered it, or use page',
  );
}
