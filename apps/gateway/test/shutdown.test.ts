// Shutting down (a deploy's SIGTERM): a request already running when the gateway starts closing
// still gets its answer, and that answer ends its kept-alive connection, so close() finishes
// instead of waiting for the client's keep-alive timeout.
import { Agent, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { startGateway, type Gateway } from "./harness.js";

let gw: Gateway;

beforeAll(async () => {
  gw = await startGateway();
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => gw.close());

test("a request running when close() begins is answered with Connection: close, and close() completes", async () => {
  const { port } = gw.app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true });
  const body = JSON.stringify({ email: "nobody@example.com", password: "not the password" });
  // The server has read the request's head (so Fastify's own closing check is behind it) once
  // its "request" listeners run; the body is held back until close() has begun.
  let closed: Promise<void> | undefined;
  const started = new Promise<void>((resolve) => gw.app.server.once("request", () => resolve()));
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        agent,
        method: "POST",
        path: "/api/auth/session",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      resolve,
    );
    req.on("error", reject);
    req.write(body.slice(0, 10));
    void started.then(() => {
      closed = gw.app.close();
      req.end(body.slice(10));
    });
  });

  const res = await answered;
  res.resume();
  expect(res.statusCode).toBe(401);
  expect(res.headers.connection).toBe("close");
  await closed;
  agent.destroy();
});
