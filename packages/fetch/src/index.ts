export * from "./url-guard.js";
export { DEFAULT_USER_AGENT, fetchPublic, type FetchPublicOptions, type FetchPublicResult } from "./fetch-public.js";
export { startFilteringProxy, type FilteringProxy, type FilteringProxyOptions } from "./filtering-proxy.js";
export { createRenderer, type Renderer, type RendererOptions, type RenderResult } from "./render-page.js";
