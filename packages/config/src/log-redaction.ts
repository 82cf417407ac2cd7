/**
 * What no process may write to its log: session cookies, authorization headers, API keys, OAuth
 * parameters and tokens. Logs are read by more people, and kept longer, than the database's
 * hashes and sealed credentials they would otherwise bypass.
 */
export const REDACTED = "[redacted]";

const SECRET_FIELDS = [
  "password",
  "token",
  "accessToken",
  "refreshToken",
  "apiKey",
  "clientSecret",
  "consumerKey",
  "consumerSecret",
  "credentials",
];

/** pino's `redact` option (paths of fields to censor wherever a log line carries them). */
export const logRedaction = {
  paths: [
    ...["req", "res", "request", "response", ""].flatMap((at) => {
      const headers = at ? `${at}.headers` : "headers";
      return [
        `${headers}.cookie`,
        `${headers}["set-cookie"]`,
        `${headers}.authorization`,
        `${headers}["x-service-api-key"]`,
        `${headers}["x-api-key"]`,
      ];
    }),
    ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ],
  censor: REDACTED,
};

// Query parameters that carry secrets: OAuth's code and state, Shopify's hmac, tokens, keys and
// signatures of every spelling (WooCommerce's state travels as user_id). Matching more than
// needed only costs a logged value.
const SECRET_PARAM =
  /code|state|hmac|token|secret|password|signature|key|session|auth|credential|verifier|nonce|user_id/i;

/**
 * The URL with every secret-looking query parameter's value replaced, path and other parameters
 * kept.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll("+", " "));
      } catch {
        /* judged as written */
      }
      return SECRET_PARAM.test(name) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, at)}?${query.join("&")}`;
}
