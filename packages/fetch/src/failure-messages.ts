import { FetchFailedError } from "./errors.js";

// Socket/TLS error codes and HTTP statuses turned into sentences a merchant can act on.

const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_CERT)/;

export function describeConnectionError(url: string, error: unknown): FetchFailedError {
  const code = (error as { code?: string }).code ?? "";
  const detail = code || (error instanceof Error ? error.message : String(error));
  let why: string;
  if (code === "ECONNREFUSED") why = "refused the connection; the site may be down";
  else if (code === "ECONNRESET" || code === "EPIPE" || /socket hang up/i.test(detail))
    why = "closed the connection unexpectedly; try again later";
  else if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT")
    why = "did not respond in time; the site may be down";
  else if (code === "EHOSTUNREACH" || code === "ENETUNREACH")
    why = "could not be reached from here";
  else if (TLS_CODE.test(code)) why = `has an invalid HTTPS certificate (${code})`;
  else why = `could not be reached (${detail})`;
  return new FetchFailedError(url, `${url} ${why}`, undefined, { cause: error, transient: true });
}

export function describeStatus(url: string, status: number, text: string | undefined): string {
  const what = `${status}${text ? ` ${text}` : ""}`;
  if (status === 404 || status === 410) return `${url} was not found (${what}); check the address`;
  if (status === 401 || status === 403)
    return `${url} refused access (${what}); the site may block automated visits`;
  if (status === 429) return `${url} is limiting requests (${what}); try again later`;
  if (status >= 500) return `${url} had a server error (${what}); try again later`;
  return `${url} answered ${what}`;
}
