import { startWorkerHealth } from "../src/worker-health.js";

const ok = async () => {};

describe("a worker's health port", () => {
  it("takes a free port when asked for 0, so several workers share a host", async () => {
    const first = await startWorkerHealth({ host: "127.0.0.1", port: 0, checks: { Redis: ok } });
    const second = await startWorkerHealth({ host: "127.0.0.1", port: 0, checks: { Redis: ok } });
    try {
      expect(first.port).not.toBe(second.port);
      for (const { port } of [first, second]) {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        expect(response.status).toBe(200);
      }
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("names the variable to change when the port it was given is taken", async () => {
    const taken = await startWorkerHealth({ host: "127.0.0.1", port: 0, checks: {} });
    try {
      await expect(
        startWorkerHealth({ host: "127.0.0.1", port: taken.port, checks: {} }),
      ).rejects.toThrow(`HEALTH_PORT ${taken.port} is already in use on 127.0.0.1`);
    } finally {
      await taken.close();
    }
  });

  it("says which dependency is down on /readyz", async () => {
    const health = await startWorkerHealth({
      host: "127.0.0.1",
      port: 0,
      checks: {
        Redis: ok,
        PostgreSQL: async () => {
          throw new Error("refused");
        },
      },
    });
    try {
      const response = await fetch(`http://127.0.0.1:${health.port}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: "not ready: PostgreSQL unreachable" });
    } finally {
      await health.close();
    }
  });
});
