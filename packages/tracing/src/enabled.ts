/**
 * Whether this process traces: only when an OTLP endpoint is configured (the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT`), and not when the standard `OTEL_SDK_DISABLED` says so. Without
 * it no SDK is loaded at all.
 */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) && env.OTEL_SDK_DISABLED !== "true";
}

/**
 * The service name a process reports when `OTEL_SERVICE_NAME` does not set one, from the file it
 * started with: `apps/<app>/(src|dist)/<file>` is `catalog-<app>`, the webhook sender's start file
 * `catalog-webhook-sender`; anything else `catalog`.
 */
export function defaultServiceName(entry: string | undefined): string {
  const match = /apps\/([\w-]+)\/(?:src|dist)\/([\w-]+)\.[cm]?[jt]s$/.exec(entry ?? "");
  if (!match) return "catalog";
  return match[2] === "webhook-sender-main" ? "catalog-webhook-sender" : `catalog-${match[1]}`;
}
