import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createDestination } from "@catalog/db";
import {
  eventually,
  freePort,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from "@catalog/testing";
import { startPipeline, syncLogsOf, type Pipeline } from "./pipeline-harness.js";
import { spawnWorker, type WorkerProcess } from "./worker-process.js";

// Tracing across processes, as deployed: the gateway, the publish worker and the stand-in channel
// each run as a process of their own, started with the one module that starts tracing
// (`--import @catalog/tracing/register`), and export to an OTLP receiver that keeps the spans in
// memory. (Inside jest the instrumentations cannot wrap node:http, pg or ioredis: jest loads
// modules itself, past the hooks they use.)

const root = fileURLToPath(new URL("../../..", import.meta.url));
const REGISTER = "./packages/tracing/src/register.ts";
const SPAN = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };

/** Every process a test started, stopped after it whatever happened. */
const children: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** A process under tsx (and the register module), resolved once its output matches `ready`. */
async function start(script: string, args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", REGISTER, script, ...args],
    {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let output = "";
  const started: Started = { child, output: () => output };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start:\n${output}`)),
      90_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
  });
  return started;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

/** JSON log lines a process wrote. */
function logLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

interface Stack {
  gateway: Started;
  worker: WorkerProcess & { output: () => string };
  url: string;
}

/** The gateway and a publish worker as processes, both started with the register module. */
async function startStack(p: Pipeline, env: Record<string, string>): Promise<Stack> {
  const port = await freePort();
  const [gateway, spawned] = await Promise.all([
    start(
      "apps/gateway/src/server.ts",
      [],
      { ...p.env, ...env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info" },
      /Server listening/,
    ),
    spawnWorker({ ...p.env, ...env }, [REGISTER]),
  ]);
  children.push(spawned.child);
  let output = "";
  spawned.child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { gateway, worker: { ...spawned, output: () => output }, url: `http://127.0.0.1:${port}` };
}

const stopAll = () => Promise.all(children.splice(0).map(stop));

/** A publish through the gateway process, over HTTP as a dashboard sends it. */
async function publishOver(stack: Stack, p: Pipeline, productId: string, destination: string) {
  const res = await fetch(`${stack.url}/api/products/publish`, {
    method: "POST",
    headers: { cookie: p.cookie, "content-type": "application/json" },
    body: JSON.stringify({ productIds: [productId], destinationAccountIds: [destination] }),
  });
  expect(res.status).toBe(200);
  const { jobs } = (await res.json()) as { jobs: { syncLogId: string }[] };
  const syncLogId = jobs[0]!.syncLogId;
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [syncLogId]))[0]).toMatchObject({ status: "succeeded" }),
    20_000,
  );
  return syncLogId;
}

let p: Pipeline;
let receiver: OtlpReceiver;
beforeAll(async () => {
  p = await startPipeline();
  receiver = await startOtlpReceiver();
}, 120_000);
afterEach(stopAll, 30_000);
afterAll(async () => {
  await receiver.close();
  await p.close();
});

test("one trace runs from the publish request through the queue and the worker to the channel's own server", async () => {
  const otel = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
  };
  const [stack, standin] = await Promise.all([
    startStack(p, otel),
    start(
      "packages/channels/src/standins/generic/standin-main.ts",
      ["--port", "0"],
      { ...process.env, ...otel, OTEL_SERVICE_NAME: "standin-channel" },
      /listening on http:\/\/\S+\n/,
    ),
  ]);
  const standinUrl = /listening on (http:\/\/\S+)/.exec(standin.output())![1]!;
  const destination = await createDestination(p.db, p.keyring, {
    orgId: p.org.org.id,
    channel: "standin",
    name: "traced store",
    baseUrl: standinUrl,
    credentials: { token: "traced:secret" },
  });
  const [productId] = await p.addProducts(1, "Traced");
  const syncLogId = await publishOver(stack, p, productId!, destination.id);
  const queue = `publish-${destination.id}`;

  // The request's server span in the gateway, and the add that enqueued its job.
  const spans = () => receiver.spans;
  let request: ReceivedSpan | undefined;
  let produced: ReceivedSpan | undefined;
  let processed: ReceivedSpan | undefined;
  let call: ReceivedSpan | undefined;
  let served: ReceivedSpan | undefined;
  await eventually(async () => {
    request = spans().find(
      (s) =>
        s.service === "catalog-gateway" &&
        s.kind === SPAN.SERVER &&
        s.attributes["url.path"] === "/api/products/publish",
    );
    expect(request).toBeDefined();
    produced = spans().find((s) => s.kind === SPAN.PRODUCER && s.name === `addBulk ${queue}`);
    processed = spans().find((s) => s.kind === SPAN.CONSUMER && s.name === `process ${queue}`);
    expect(produced).toBeDefined();
    expect(processed).toBeDefined();
    call = spans().find(
      (s) =>
        s.service === "catalog-publish-worker" &&
        s.kind === SPAN.CLIENT &&
        String(s.attributes["url.full"]).startsWith(standinUrl),
    );
    expect(call).toBeDefined();
    served = spans().find((s) => s.service === "standin-channel" && s.kind === SPAN.SERVER);
    expect(served).toBeDefined();
  }, 15_000);

  // One trace, each process's span the child of the one before it.
  const traceId = request!.traceId;
  for (const span of [produced, processed, call, served]) expect(span!.traceId).toBe(traceId);
  expect(produced!.service).toBe("catalog-gateway");
  const byId = new Map(spans().map((s) => [s.spanId, s]));
  const ancestors = (span: ReceivedSpan) => {
    const chain: string[] = [];
    for (let at = span.parentSpanId; at; at = byId.get(at)?.parentSpanId ?? null) chain.push(at);
    return chain;
  };
  expect(ancestors(produced!)).toContain(request!.spanId);
  expect(processed!.service).toBe("catalog-publish-worker");
  expect(processed!.parentSpanId).toBe(produced!.spanId);
  expect(processed!.attributes["bullmq.job.id"]).toBe(syncLogId);
  expect(ancestors(call!)).toContain(processed!.spanId);
  expect(served!.parentSpanId).toBe(call!.spanId);
  // The request's statements and Redis commands are in it too (pg, ioredis).
  const under = (scope: string, parent: ReceivedSpan) =>
    spans().some((s) => s.scope.endsWith(scope) && ancestors(s).includes(parent.spanId));
  expect(under("instrumentation-pg", request!)).toBe(true);
  expect(under("instrumentation-ioredis", produced!)).toBe(true);

  // The gateway's log lines of the request name its trace and span.
  const lines = logLines(stack.gateway.output()).filter(
    (l) => (l.req as { url?: string } | undefined)?.url === "/api/products/publish",
  );
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines)
    expect(line).toMatchObject({ trace_id: traceId, span_id: request!.spanId });
}, 240_000);

test("without OTEL_EXPORTER_OTLP_ENDPOINT nothing is traced or exported, and log lines carry no trace id", async () => {
  const before = receiver.requests;
  // Where the SDK would send traces if it were loaded: nothing may arrive there.
  const stack = await startStack(p, {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
  });
  const destination = await p.addDestination("untraced");
  const [productId] = await p.addProducts(1, "Untraced");
  await publishOver(stack, p, productId!, destination);
  // Their last spans, if they had any, would be sent as they stop.
  await stopAll();

  expect(receiver.requests).toBe(before);
  const lines = [...logLines(stack.gateway.output()), ...logLines(stack.worker.output())];
  expect(lines.some((l) => l.msg === "request completed")).toBe(true);
  for (const line of lines) {
    expect(line).not.toHaveProperty("trace_id");
    expect(line).not.toHaveProperty("span_id");
  }
}, 240_000);
