import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromiumPath, renderPageTests } from "./render-page-cases.js";

describe.each(existsSync(chromiumPath) ? [chromiumPath] : [])(
  "createRenderer, Chromium launched here (%s)",
  () => {
    renderPageTests({
      options: () => ({}),
      async kill() {
        // Only the Chromium this process launched (its direct child), by pid.
        const children = execFileSync("pgrep", ["-P", String(process.pid), "-f", "chromium"], {
          encoding: "utf8",
        })
          .trim()
          .split("\n")
          .filter(Boolean);
        expect(children.length).toBeGreaterThan(0);
        for (const pid of children) process.kill(Number(pid), "SIGKILL");
        await new Promise((r) => setTimeout(r, 300));
      },
    });
  },
);
