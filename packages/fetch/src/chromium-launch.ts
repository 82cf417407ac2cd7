import type { LaunchOptions } from "playwright-core";

/**
 * Every browser context is given the filtering proxy of the process that renders in it
 * (`newContext({ proxy })`). The browser's own proxy is a name that cannot resolve (see
 * --host-resolver-rules), so a context opened without a proxy reaches nothing.
 */
const NO_PROXY_OF_ITS_OWN = "http://proxy-per-context.invalid";

/** How Chromium is started, in the import worker or in the renderer process alike. */
export function chromiumLaunchOptions(executablePath: string): LaunchOptions {
  return {
    executablePath,
    headless: true,
    timeout: 30_000,
    args: [
      "--no-sandbox", // the restricted Pod Security profile allows no sandbox (deploy/README.md)
      "--disable-gpu",
      // Shared memory in /tmp: a container's 64 MB /dev/shm crashes tabs.
      "--disable-dev-shm-usage",
      "--disable-quic", // QUIC/WebTransport are UDP and would not go through the proxy
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--proxy-server=${NO_PROXY_OF_ITS_OWN}`,
      // Chromium sends loopback straight out, never to a proxy, unless this rule removes that.
      "--proxy-bypass-list=<-loopback>",
      // WebRTC would otherwise open UDP to any address the page names, past the proxy.
      "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      // Chromium must never resolve names itself: everything goes by name to the proxy.
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ],
  };
}
