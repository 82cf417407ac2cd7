/**
 * An error a client can act on: its message is shown as `{ error }` with `statusCode`.
 * Anything else that is thrown is an internal error and its details stay in the log.
 */
export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    readonly statusCode: number,
    message: string,
    /** Response headers that go with the error, such as Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new ServiceError(404, `${what} not found`);
export const conflict = (message: string) => new ServiceError(409, message);
export const invalid = (message: string) => new ServiceError(422, message);
