export { classifyAddress, isPublicAddress, type AddressVerdict, type ResolvedAddress, type TargetAddress, type UrlPolicy } from "./address-policy.js";
export { checkPublicUrl, type CheckedUrl } from "./check-url.js";
export { BlockedUrlError, FetchFailedError, InvalidUrlError } from "./errors.js";
export { DEFAULT_USER_AGENT, fetchPublic, type FetchPublicOptions, type FetchPublicResult } from "./fetch-public.js";
export { startFilteringProxy, type FilteringProxy, type FilteringProxyOptions } from "./filtering-proxy.js";
export { createRenderer, type Renderer, type RendererOptions, type RenderResult } from "./render-page.js";
