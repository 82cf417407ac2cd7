// The URL checks alone, for processes that must refuse private addresses but never fetch or
// render (the gateway): importing this does not load the browser driver.
export {
  classifyAddress,
  isPublicAddress,
  type AddressVerdict,
  type ResolvedAddress,
  type TargetAddress,
  type UrlPolicy,
} from "./address-policy.js";
export { checkPublicUrl, type CheckedUrl } from "./check-url.js";
export { BlockedUrlError, FetchFailedError, InvalidUrlError } from "./errors.js";
export { createPublicUrlScreen, type PublicUrlScreen } from "./public-url-screen.js";
