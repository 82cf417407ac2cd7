import { Type, type TSchema } from "typebox";

export const ErrorSchema = Type.Object(
  { error: Type.String({ description: "A message a person can act on." }) },
  { $id: "Error", additionalProperties: false },
);

/** The same `{ error }` body for each listed status, so OpenAPI documents every error response. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorSchema]));
}

/** The `{ error }` body with what a status means on this route, for OpenAPI readers. */
export function describedError(description: string) {
  return Type.Object(ErrorSchema.properties, { additionalProperties: false, description });
}

export const MAX_PAGE_SIZE = 100;

export const PageQuerySchema = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
    pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 25 }),
  },
  { additionalProperties: false },
);

export function ListSchema<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    page: Type.Integer(),
    pageSize: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  });
}

export function toList<T>(items: T[], total: number, query: { page: number; pageSize: number }) {
  return {
    items,
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.ceil(total / query.pageSize),
  };
}

export const UuidParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

/**
 * `true` only when A and B are the same set of names: a schema's literal list checked against the
 * database's enum.
 */
export type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
