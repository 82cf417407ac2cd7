// Everything but the browser: the URL checks, pinned fetches of pages and files, and pinned API
// requests. Processes that must never launch Chromium (the gateway, the publish workers) import
// this; it does not load the browser driver.
export * from "./url-guard.js";
export { startDeadline, timeoutReason, type Deadline } from "./deadline.js";
export {
  DEFAULT_USER_AGENT,
  fetchPublic,
  fetchPublicBytes,
  type FetchPublicBytesResult,
  type FetchPublicOptions,
  type FetchPublicResult,
} from "./fetch-public.js";
export { requestPublic, type PublicAnswer, type PublicRequest } from "./request-public.js";
