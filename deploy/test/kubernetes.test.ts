// The Kubernetes manifests, rendered as an operator renders them (kubectl kustomize) and each
// object validated against the Kubernetes schemas (kubernetes-models), then checked for what an
// operator relies on: probes, resources, budgets, grace, autoscaling on metrics the workers serve.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Job } from "kubernetes-models/batch/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, Service } from "kubernetes-models/v1";
import { loadGatewayConfig } from "@catalog/config/gateway";
import { hasSource, repoRoot } from "./built-processes.js";

const MODELS = {
  Deployment,
  HorizontalPodAutoscaler,
  Job,
  PodDisruptionBudget,
  ConfigMap,
  Namespace,
  Service,
} as const;
type Kind = keyof typeof MODELS;

// Only the fields these tests read; the schemas (kubernetes-models) check the rest.
type Metadata = { name: string; namespace?: string; annotations?: Record<string, string> };
type Labels = Record<string, string>;
type Probe = { httpGet: { path: string; port: string | number } };
type Container = {
  image: string;
  command: string[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: Probe;
  readinessProbe: Probe;
  resources: { requests: { cpu?: string; memory?: string }; limits: { memory?: string } };
  envFrom: unknown[];
};
type PodTemplate = {
  metadata: { annotations: Record<string, string> };
  spec: {
    containers: Container[];
    initContainers?: Container[];
    securityContext: { runAsNonRoot?: boolean };
    terminationGracePeriodSeconds: number;
  };
};
type Specs = {
  Deployment: { replicas?: number; selector: { matchLabels: Labels }; template: PodTemplate };
  Job: { template: PodTemplate };
  PodDisruptionBudget: { selector: { matchLabels: Labels } };
  Service: { selector: Labels };
  HorizontalPodAutoscaler: {
    scaleTargetRef: { name: string };
    minReplicas: number;
    metrics: { external: { metric: { name: string } } }[];
  };
  ConfigMap: never;
  Namespace: never;
};
type Manifest = {
  [K in Kind]: { kind: K; metadata: Metadata; spec: Specs[K]; data?: Record<string, string> };
}[Kind];

const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" }).status === 0;
if (!kubectl)
  console.warn(
    "kubernetes.test.ts: kubectl is not installed, so the manifests are not rendered; these tests are skipped",
  );
const maybe = kubectl ? describe : describe.skip;

function render(dir: string): Manifest[] {
  const text = execFileSync("kubectl", ["kustomize", `${repoRoot}deploy/kubernetes/${dir}`], {
    encoding: "utf8",
  });
  return parseAllDocuments(text).map((doc) => doc.toJSON() as Manifest);
}

const workerSources =
  readFileSync(`${repoRoot}apps/publish-worker/src/metrics.ts`, "utf8") +
  readFileSync(`${repoRoot}apps/import-worker/src/metrics.ts`, "utf8");

maybe.each(["base", "overlays/production"])("deploy/kubernetes/%s", (dir) => {
  const objects = render(dir);
  const of = <K extends Kind>(kind: K) =>
    objects.filter((o): o is Extract<Manifest, { kind: K }> => o.kind === kind);
  const deployments = of("Deployment");

  test("every object is valid against the Kubernetes schemas", () => {
    expect(objects.length).toBeGreaterThanOrEqual(11);
    for (const object of objects) {
      const Model = MODELS[object.kind];
      expect(`${object.kind} ${Model ? "known" : "has no model here"}`).toBe(
        `${object.kind} known`,
      );
      expect(() => new Model(object as never).validate()).not.toThrow();
    }
  });

  test("the schemas refuse a broken object, so the check above means something", () => {
    const broken = structuredClone(deployments[0]!);
    const spec: Record<string, unknown> = { ...broken.spec, replicas: "three" };
    delete spec.selector;
    expect(() => new Deployment({ ...broken, spec } as never).validate()).toThrow(/selector/);
  });

  test("gateway, import worker and publish worker run with probes, resources and grace for work in flight", () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([
      "catalog-gateway",
      "catalog-import-worker",
      "catalog-publish-worker",
    ]);
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const container = pod.containers[0]!;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(container.livenessProbe.httpGet.path).toBe("/healthz");
      expect(container.readinessProbe.httpGet.path).toBe("/readyz");
      const port = container.ports.find(
        (p: { name: string }) => p.name === container.readinessProbe.httpGet.port,
      );
      expect(port).toBeDefined();
      expect(deployment.spec.template.metadata.annotations["prometheus.io/port"]).toBe(
        String(port!.containerPort),
      );
      expect(container.resources.requests.cpu).toBeDefined();
      expect(container.resources.requests.memory).toBeDefined();
      expect(container.resources.limits.memory).toBeDefined();
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
      expect(container.envFrom).toEqual([
        { configMapRef: { name: "catalog-config" } },
        { secretRef: { name: "catalog-secrets" } },
      ]);
      // node starts the compiled file of a source that exists.
      expect(container.command[0]).toBe("node");
      expect(hasSource(container.command[1]!)).toBe(true);
    }
    // The workers' health port is the image's HEALTH_PORT.
    const imageHealthPort = /HEALTH_PORT=(\d+)/.exec(
      readFileSync(`${repoRoot}Dockerfile`, "utf8"),
    )![1];
    for (const name of ["catalog-import-worker", "catalog-publish-worker"]) {
      const [container] = deployments.find((d) => d.metadata.name === name)!.spec.template.spec
        .containers;
      expect(String(container!.ports[0]!.containerPort)).toBe(imageHealthPort);
    }
  });

  test("migrations run in a Job and before any pod that reads the database starts", () => {
    const [job] = of("Job");
    const migrate = job!.spec.template.spec.containers[0]!.command;
    expect(migrate).toEqual(["node", "packages/db/dist/migrations/cli.js", "deploy"]);
    for (const name of ["catalog-gateway", "catalog-publish-worker"]) {
      const pod = deployments.find((d) => d.metadata.name === name)!.spec.template.spec;
      expect(pod.initContainers?.[0]?.command).toEqual(migrate);
    }
  });

  test("each Deployment has a disruption budget and the gateway a Service that selects its pods", () => {
    for (const deployment of deployments) {
      const budget = of("PodDisruptionBudget").find(
        (p) => p.metadata.name === deployment.metadata.name,
      );
      expect(budget?.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    }
    const [service] = of("Service");
    const gateway = deployments.find((d) => d.metadata.name === "catalog-gateway")!;
    expect(service!.spec.selector).toEqual(gateway.spec.selector.matchLabels);
  });

  test("the workers scale on queue depth metrics that they serve, and the autoscaler alone sets their replicas", () => {
    const autoscalers = of("HorizontalPodAutoscaler");
    expect(autoscalers.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual([
      "catalog-import-worker",
      "catalog-publish-worker",
    ]);
    for (const hpa of autoscalers) {
      const metric = hpa.spec.metrics[0]!.external.metric;
      expect(workerSources).toContain(`name: "${metric.name}"`);
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
      expect(
        deployments.find((d) => d.metadata.name === hpa.spec.scaleTargetRef.name)!.spec.replicas,
      ).toBeUndefined();
    }
  });
});

maybe("the production overlay", () => {
  test("has the gateway behind its ingress: Secure cookies at the https PUBLIC_URL, X-Forwarded-For believed from the cluster's private network only", () => {
    const objects = render("overlays/production");
    const config = objects.find(
      (o) => o.kind === "ConfigMap" && o.metadata.name === "catalog-config",
    ) as unknown as { data: Record<string, string> };
    const gateway = loadGatewayConfig(config.data);
    expect(gateway.channels.publicUrl).toMatch(/^https:\/\//);
    expect(gateway.COOKIE_SECURE).toBe(true);
    expect(gateway.TRUST_PROXY).toEqual(["uniquelocal"]);
  });

  test("puts everything in its namespace, with the registry's images at a released tag", () => {
    const objects = render("overlays/production");
    for (const object of objects.filter((o) => o.kind !== "Namespace"))
      expect(object.metadata.namespace).toBe("catalog");
    const images = objects
      .filter((o) => o.kind === "Deployment" || o.kind === "Job")
      .flatMap((o) =>
        [...(o.spec.template.spec.initContainers ?? []), ...o.spec.template.spec.containers].map(
          (c: { image: string }) => c.image,
        ),
      );
    for (const image of images)
      expect(image).toMatch(/^your-registry\/catalog-service(-import-worker)?:0\.1\.0$/);
  });
});
