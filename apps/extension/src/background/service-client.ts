// The one place the extension calls the service: the key in x-service-api-key, JSON in and out,
// and every failure turned into a UserError. The service answers /api/extension/* to any origin
// (CORS without credentials), so the extension needs no host permission for it.
import { errorFromNetwork, errorFromResponse, type UserError } from "../shared/user-error";

/** Previews of a large page parse for a while; past this the service is treated as unreachable. */
const TIMEOUT_MS = 45_000;

export class ServiceError extends Error {
  constructor(readonly userError: UserError) {
    super(userError.message);
    this.name = "ServiceError";
  }
}

export interface Credentials {
  serviceUrl: string;
  key: string;
}

export async function callService<T>(
  credentials: Credentials,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${credentials.serviceUrl}/api/extension${path}`, {
      method,
      headers: {
        accept: "application/json",
        "x-service-api-key": credentials.key,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new ServiceError(errorFromNetwork(credentials.serviceUrl, navigator.onLine));
  }
  const text = await response.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: a proxy's error page, or not this service at all.
  }
  if (!response.ok)
    throw new ServiceError(
      errorFromResponse(response.status, data, response.headers.get("retry-after"), Date.now()),
    );
  if (data === undefined && response.status !== 204) {
    throw new ServiceError({
      kind: "rejected",
      message: `${credentials.serviceUrl} answered, but not as the catalog service does: check the address.`,
    });
  }
  return data as T;
}
