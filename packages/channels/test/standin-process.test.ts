import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createStandinAdapter, GiveUpChannelError } from "../src/index.js";
import type { StandinInspection } from "../src/standins/index.js";
import { destination, product, publishInput } from "./fixtures.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const main = fileURLToPath(new URL("../src/standins/generic/standin-main.ts", import.meta.url));

// What a worker test or a benchmark does: the stand-in in another process, driven over HTTP only.
describe("stand-in channel in its own process", () => {
  let child: ChildProcess;
  let url = "";
  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", "tsx", main, "--port", "0"], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    for await (const chunk of child.stdout!) {
      output += String(chunk);
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found) {
        url = found[1]!;
        break;
      }
    }
  }, 20_000);
  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  }, 10_000);

  test("publishes, takes a fault over /_control, reports counts, and stops on SIGTERM", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const adapter = createStandinAdapter({ timeoutMs: 2_000 });
    const dest = destination(url);
    const prod = product();
    const control = `${url}/_control/stores/${dest.storeId}`;

    const { remoteId } = await adapter.publish(publishInput(dest, prod));
    await fetch(`${control}/fault`, {
      method: "POST",
      body: JSON.stringify({ kind: "auth", times: 1 }),
    });
    await expect(adapter.publish(publishInput(dest, prod, { remoteId }))).rejects.toBeInstanceOf(
      GiveUpChannelError,
    );
    await adapter.publish(publishInput(dest, prod, { remoteId }));
    await adapter.publish(publishInput(dest, prod, { remoteId }));

    const inspection = (await (await fetch(control)).json()) as StandinInspection;
    // A create (one request), an update refused by the fault, two updates.
    expect(inspection.counts).toMatchObject({ create: 1, update: 2, requests: 4 });
    expect(inspection.listings).toEqual([expect.objectContaining({ id: remoteId, version: 3 })]);

    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
    expect(code).toBe(0);
  }, 10_000);
});
