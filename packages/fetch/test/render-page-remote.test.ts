import { existsSync } from "node:fs";
import { chromiumPath, renderPageTests } from "./render-page-cases.js";
import { freePort, startRendererProcess, type RendererProcess } from "./renderer-process.js";

// The same tests with Chromium in the renderer process (a child of this one, holding no
// credentials): the worker's route interception and filtering proxy still hold over the websocket.
describe.each(existsSync(chromiumPath) ? [chromiumPath] : [])(
  "createRenderer, connected to a renderer process (%s)",
  () => {
    let port: number;
    let renderer: RendererProcess;
    beforeAll(async () => {
      port = await freePort();
      renderer = await startRendererProcess(port, chromiumPath);
    }, 60_000);
    afterAll(() => renderer.stop());

    renderPageTests({
      options: () => ({ rendererUrl: renderer.wsEndpoint }),
      async kill() {
        // The renderer dies and comes back on the same port, as its container would be restarted.
        await renderer.stop("SIGKILL");
        renderer = await startRendererProcess(port, chromiumPath);
      },
    });
  },
);
