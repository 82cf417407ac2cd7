export * from "./public.js";
export {
  startFilteringProxy,
  type FilteringProxy,
  type FilteringProxyOptions,
} from "./filtering-proxy.js";
export {
  createRenderer,
  type Renderer,
  type RendererOptions,
  type RenderResult,
} from "./render-page.js";
export {
  RENDERER_WS_PATH,
  startRendererServer,
  type RendererServerOptions,
} from "./renderer-server.js";
