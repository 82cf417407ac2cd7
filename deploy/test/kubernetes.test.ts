// The Kubernetes manifests, rendered as an operator renders them (kubectl kustomize) and each
// object validated against the Kubernetes schemas (kubernetes-models), then checked for what an
// operator relies on: probes, resources, budgets, grace, autoscaling on metrics the workers serve,
// the "restricted" Pod Security Standard (pod-security.ts), NetworkPolicies and one migration Job
// per release.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { CronJob, Job } from "kubernetes-models/batch/v1";
import { Ingress, NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, PersistentVolumeClaim, Service } from "kubernetes-models/v1";
import { loadGatewayConfig } from "@catalog/config/gateway";
import { hasSource, repoRoot } from "./built-processes.js";
import { restrictedViolations } from "./pod-security.js";

const MODELS = {
  Deployment,
  HorizontalPodAutoscaler,
  Job,
  CronJob,
  PodDisruptionBudget,
  ConfigMap,
  Namespace,
  Service,
  NetworkPolicy,
  PersistentVolumeClaim,
  Ingress,
} as const;
type Kind = keyof typeof MODELS;

// Only the fields these tests read; the schemas (kubernetes-models) check the rest.
type Metadata = { name: string; namespace?: string; annotations?: Record<string, string> };
type Labels = Record<string, string>;
type Probe = { httpGet: { path: string; port: string | number } };
type Container = {
  name: string;
  image: string;
  command: string[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: Probe;
  readinessProbe: Probe;
  resources: { requests: { cpu?: string; memory?: string }; limits: { memory?: string } };
  envFrom: unknown[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  volumeMounts?: { name: string; mountPath: string }[];
  securityContext?: { readOnlyRootFilesystem?: boolean };
};
type PodTemplate = {
  metadata: { annotations: Record<string, string> };
  spec: {
    hostNetwork?: boolean;
    volumes?: Record<string, unknown>[];
    containers: Container[];
    initContainers?: Container[];
    securityContext: { runAsNonRoot?: boolean };
    terminationGracePeriodSeconds: number;
  };
};
type PolicyPeer = {
  namespaceSelector?: { matchLabels: Labels };
  ipBlock?: { cidr: string; except?: string[] };
};
type Specs = {
  Deployment: { replicas?: number; selector: { matchLabels: Labels }; template: PodTemplate };
  Job: { template: PodTemplate };
  CronJob: { jobTemplate: { spec: { template: PodTemplate } } };
  NetworkPolicy: {
    podSelector: { matchLabels?: Labels; matchExpressions?: { values: string[] }[] };
    policyTypes: string[];
    ingress?: { from: PolicyPeer[]; ports: { port: string }[] }[];
    egress?: { to: PolicyPeer[]; ports?: { port: number }[] }[];
  };
  Ingress: {
    tls: { hosts: string[]; secretName: string }[];
    rules: {
      host: string;
      http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] };
    }[];
  };
  PodDisruptionBudget: { selector: { matchLabels: Labels } };
  Service: { selector: Labels; ports: { name: string; targetPort: string }[] };
  HorizontalPodAutoscaler: {
    scaleTargetRef: { name: string };
    minReplicas: number;
    metrics: { external: { metric: { name: string } } }[];
  };
  ConfigMap: never;
  Namespace: never;
  PersistentVolumeClaim: never;
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

/** Each workload's pod spec, named Kind/name. */
function workloadPods(objects: Manifest[]): [string, PodTemplate["spec"]][] {
  return objects.flatMap((o): [string, PodTemplate["spec"]][] => {
    if (o.kind === "Deployment" || o.kind === "Job")
      return [[`${o.kind}/${o.metadata.name}`, o.spec.template.spec]];
    if (o.kind === "CronJob")
      return [[`CronJob/${o.metadata.name}`, o.spec.jobTemplate.spec.template.spec]];
    return [];
  });
}

const readOnlyRoot = (container: Container) => container.securityContext?.readOnlyRootFilesystem;

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
      expect(container.ports.map((p) => p.name)).toContain(container.readinessProbe.httpGet.port);
      // Prometheus scrapes the health port, which serves /metrics on every process.
      const health = container.ports.find((p) => p.name === "health");
      expect(deployment.spec.template.metadata.annotations["prometheus.io/port"]).toBe(
        String(health!.containerPort),
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
    for (const deployment of deployments) {
      const [container] = deployment.spec.template.spec.containers;
      const health = container!.ports.find((p) => p.name === "health");
      expect(String(health?.containerPort)).toBe(imageHealthPort);
    }
  });

  test("migrations run once, in the Job; the pods wait for the schema their image needs, never migrate", () => {
    const [job] = of("Job");
    const deploy = ["node", "packages/db/dist/migrations/cli.js", "deploy"];
    expect(job!.spec.template.spec.containers[0]!.command).toEqual(deploy);
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const commands = [...(pod.initContainers ?? []), ...pod.containers].map((c) => c.command);
      expect(commands).not.toContainEqual(deploy);
    }
    for (const name of ["catalog-gateway", "catalog-publish-worker"]) {
      const pod = deployments.find((d) => d.metadata.name === name)!.spec.template.spec;
      expect(pod.initContainers?.map((c) => c.command)).toEqual([
        ["node", "packages/db/dist/migrations/cli.js", "wait"],
      ]);
    }
  });

  test("every pod passes the restricted Pod Security Standard, on a read-only root filesystem", () => {
    const pods = workloadPods(objects);
    expect(pods.map(([name]) => name).sort()).toEqual(
      [
        "CronJob/catalog-backup",
        "Deployment/catalog-gateway",
        "Deployment/catalog-import-worker",
        "Deployment/catalog-publish-worker",
        `Job/${of("Job")[0]!.metadata.name}`,
      ].sort(),
    );
    for (const [name, pod] of pods) {
      expect({ name, violations: restrictedViolations(pod) }).toEqual({ name, violations: [] });
      for (const container of [...(pod.initContainers ?? []), ...pod.containers])
        expect({ name, container: container.name, readOnly: readOnlyRoot(container) }).toEqual({
          name,
          container: container.name,
          readOnly: true,
        });
    }
  });

  test("the import worker's Chromium runs in a renderer container beside it that holds no credentials", () => {
    const pod = deployments.find((d) => d.metadata.name === "catalog-import-worker")!.spec.template
      .spec;
    const [worker, renderer] = pod.containers;
    expect(renderer!.name).toBe("renderer");
    expect(renderer!.command).toEqual(["node", "apps/import-worker/dist/renderer-main.js"]);
    expect(hasSource(renderer!.command[1]!)).toBe(true);
    // Nothing from the ConfigMap or the Secret, no value from anywhere but the manifest itself.
    expect(renderer!.envFrom).toBeUndefined();
    const names = (renderer!.env ?? []).map((e) => e.name);
    for (const name of ["DATABASE_URL", "REDIS_URL", "CREDENTIALS_KEYS"])
      expect(names).not.toContain(name);
    expect((renderer!.env ?? []).filter((e) => e.valueFrom)).toEqual([]);
    // The worker connects to it over the pod's loopback, on the port the renderer serves.
    const port = renderer!.ports.find((p) => p.name === "renderer")!.containerPort;
    expect(worker!.env).toContainEqual({
      name: "RENDERER_URL",
      value: `ws://127.0.0.1:${port}/chromium`,
    });
    expect(renderer!.env).toContainEqual({ name: "RENDERER_PORT", value: String(port) });
    // Shared memory: a memory-backed /dev/shm of a set size, mounted in the renderer only.
    const shm = renderer!.volumeMounts!.find((m) => m.mountPath === "/dev/shm")!;
    expect(pod.volumes).toContainEqual({
      name: shm.name,
      emptyDir: { medium: "Memory", sizeLimit: "256Mi" },
    });
    expect(worker!.volumeMounts ?? []).toEqual([]);
  });

  test("the public Service exposes the gateway's http port only, never the health port with /metrics", () => {
    const [service] = of("Service");
    expect(service!.spec.ports.map((p) => p.targetPort)).toEqual(["http"]);
  });

  test("NetworkPolicies: all denied, then the gateway from the ingress controller, health ports from Prometheus, the data stores, and the internet without private ranges", () => {
    const policies = of("NetworkPolicy");
    const named = (name: string) => policies.find((p) => p.metadata.name === name)!.spec;
    expect(named("catalog-default-deny")).toEqual({
      podSelector: {},
      policyTypes: ["Ingress", "Egress"],
    });
    const gateway = named("catalog-gateway-ingress");
    expect(gateway.podSelector.matchLabels).toEqual({
      "app.kubernetes.io/name": "catalog-gateway",
    });
    expect(gateway.ingress).toEqual([
      {
        from: [
          {
            namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } },
          },
        ],
        ports: [{ port: "http" }],
      },
    ]);
    expect(named("catalog-metrics-ingress").ingress![0]!.ports).toEqual([{ port: "health" }]);
    const stores = named("catalog-datastores-egress").egress!;
    expect(stores.flatMap((rule) => rule.ports?.map((p) => p.port) ?? [])).toEqual([
      53, 53, 5432, 6379,
    ]);
    const internet = named("catalog-internet-egress");
    expect(internet.podSelector.matchExpressions![0]!.values).toEqual(
      deployments.map((d) => d.metadata.name).sort(),
    );
    const blocks = internet.egress!.flatMap((rule) => rule.to.map((peer) => peer.ipBlock!));
    expect(blocks.map((b) => b.cidr)).toEqual(["0.0.0.0/0", "::/0"]);
    // Cluster services, private networks and the cloud's metadata address are never the internet.
    for (const range of [
      "10.0.0.0/8",
      "172.16.0.0/12",
      "192.168.0.0/16",
      "169.254.0.0/16",
      "127.0.0.0/8",
      "100.64.0.0/10",
    ])
      expect(blocks[0]!.except).toContain(range);
    for (const range of ["::1/128", "fc00::/7", "fe80::/10"])
      expect(blocks[1]!.except).toContain(range);
    // Nothing in the rules opens ports beyond those.
    expect(internet.egress!.every((rule) => rule.ports === undefined)).toBe(true);
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

maybe("the restricted-profile check", () => {
  test("refuses a pod that breaks the profile, naming each rule, so the check above can fail", () => {
    const [gateway] = render("base").filter((o) => o.kind === "Deployment");
    const pod = structuredClone(gateway!.spec.template.spec);
    delete pod.securityContext.runAsNonRoot;
    (pod.securityContext as Record<string, unknown>).seccompProfile = { type: "Unconfined" };
    pod.hostNetwork = true;
    pod.volumes = [...(pod.volumes ?? []), { name: "docker", hostPath: { path: "/var/run" } }];
    pod.initContainers![0]!.securityContext = {
      privileged: true,
      allowPrivilegeEscalation: true,
      capabilities: { add: ["SYS_ADMIN"], drop: ["ALL"] },
    } as never;
    pod.containers[0]!.securityContext = {};
    const violations = restrictedViolations(pod);
    for (const rule of [
      "Host Namespaces: hostNetwork is true",
      "HostPath Volumes: volume docker",
      "container wait-for-schema: Privileged Containers: privileged is true",
      "container wait-for-schema: Privilege Escalation: allowPrivilegeEscalation is not false",
      "container wait-for-schema: Capabilities: adds SYS_ADMIN",
      "container gateway: Running as Non-root: runAsNonRoot is not true",
      "container gateway: Seccomp: seccompProfile.type is Unconfined",
      "container gateway: Capabilities: drop does not hold ALL",
      "Seccomp: pod is Unconfined",
    ])
      expect(violations).toContain(rule);
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

  test("names the migration Job after the release (its image's tag), so a new release applies a new Job", () => {
    const objects = render("overlays/production");
    const [job] = objects.filter((o) => o.kind === "Job");
    const tag = job!.spec.template.spec.containers[0]!.image.split(":")[1];
    expect(job!.metadata.name).toBe(`catalog-migrate-${tag}`);
    expect(tag).toBe("0.1.0");
  });

  test("routes the ingress with TLS for PUBLIC_URL's host to the gateway's public port", () => {
    const objects = render("overlays/production");
    const [ingress] = objects.filter((o) => o.kind === "Ingress");
    const config = objects.find((o) => o.kind === "ConfigMap") as unknown as {
      data: Record<string, string>;
    };
    const host = new URL(config.data.PUBLIC_URL!).host;
    expect(ingress!.spec.tls).toEqual([{ hosts: [host], secretName: "catalog-tls" }]);
    expect(ingress!.spec.rules.map((r) => r.host)).toEqual([host]);
    expect(ingress!.spec.rules[0]!.http.paths.map((p) => p.backend.service)).toEqual([
      { name: "catalog-gateway", port: { name: "http" } },
    ]);
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
