// The Kubernetes Pod Security Standards' "restricted" profile (which includes "baseline"), checked
// on a pod spec field by field as the documentation lists them
// (https://kubernetes.io/docs/concepts/security/pod-security-standards/, v1.32). No cluster is
// needed; kubeconform and kube-linter are not installable here. Each rule returns the violations it
// finds, worded after the documentation's control names.

type SecurityContext = {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type?: string };
  appArmorProfile?: { type?: string };
  seLinuxOptions?: { type?: string; user?: string; role?: string };
  windowsOptions?: { hostProcess?: boolean };
  procMount?: string;
  sysctls?: { name: string }[];
};
type Container = {
  name: string;
  ports?: { containerPort?: number; hostPort?: number }[];
  securityContext?: SecurityContext;
};
export type PodSpec = {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: SecurityContext;
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Record<string, unknown>[];
};

const SAFE_SYSCTLS = new Set([
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.ip_unprivileged_port_start",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_local_reserved_ports",
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
]);
const RESTRICTED_VOLUMES = new Set([
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "persistentVolumeClaim",
  "projected",
  "secret",
]);
const SELINUX_TYPES = new Set(["", "container_t", "container_init_t", "container_kvm_t"]);

/** Everything in `pod` the restricted profile refuses; empty when it passes. */
export function restrictedViolations(pod: PodSpec): string[] {
  const found: string[] = [];
  const podSc = pod.securityContext ?? {};
  const containers = [
    ...pod.containers,
    ...(pod.initContainers ?? []),
    ...(pod.ephemeralContainers ?? []),
  ];
  const each = (check: (sc: SecurityContext, name: string) => string | null) => {
    for (const c of containers) {
      const problem = check(c.securityContext ?? {}, c.name);
      if (problem) found.push(`container ${c.name}: ${problem}`);
    }
  };

  // Baseline.
  if (podSc.windowsOptions?.hostProcess) found.push("HostProcess: pod sets hostProcess");
  each((sc) => (sc.windowsOptions?.hostProcess ? "HostProcess: hostProcess is set" : null));
  for (const field of ["hostNetwork", "hostPID", "hostIPC"] as const)
    if (pod[field]) found.push(`Host Namespaces: ${field} is true`);
  each((sc) => (sc.privileged ? "Privileged Containers: privileged is true" : null));
  for (const volume of pod.volumes ?? [])
    if ("hostPath" in volume) found.push(`HostPath Volumes: volume ${String(volume.name)}`);
  for (const c of containers)
    for (const port of c.ports ?? [])
      if (port.hostPort) found.push(`container ${c.name}: Host Ports: hostPort ${port.hostPort}`);
  const appArmor = (sc: SecurityContext) =>
    sc.appArmorProfile?.type && !["RuntimeDefault", "Localhost"].includes(sc.appArmorProfile.type)
      ? `AppArmor: ${sc.appArmorProfile.type}`
      : null;
  const seLinux = (sc: SecurityContext) =>
    !SELINUX_TYPES.has(sc.seLinuxOptions?.type ?? "") ||
    sc.seLinuxOptions?.user ||
    sc.seLinuxOptions?.role
      ? "SELinux: custom seLinuxOptions"
      : null;
  for (const rule of [appArmor, seLinux]) {
    const problem = rule(podSc);
    if (problem) found.push(`pod: ${problem}`);
    each(rule);
  }
  each((sc) =>
    sc.procMount && sc.procMount !== "Default" ? `/proc Mount Type: ${sc.procMount}` : null,
  );
  for (const sysctl of podSc.sysctls ?? [])
    if (!SAFE_SYSCTLS.has(sysctl.name)) found.push(`Sysctls: ${sysctl.name} is not safe`);

  // Restricted.
  for (const volume of pod.volumes ?? []) {
    const type = Object.keys(volume).find((key) => key !== "name");
    if (type && !RESTRICTED_VOLUMES.has(type) && type !== "hostPath")
      found.push(`Volume Types: volume ${String(volume.name)} is ${type}`);
  }
  each((sc) =>
    sc.allowPrivilegeEscalation === false
      ? null
      : "Privilege Escalation: allowPrivilegeEscalation is not false",
  );
  each((sc) =>
    sc.runAsNonRoot === false || (sc.runAsNonRoot === undefined && podSc.runAsNonRoot !== true)
      ? "Running as Non-root: runAsNonRoot is not true"
      : null,
  );
  if (podSc.runAsUser === 0) found.push("Running as Non-root user: pod runAsUser is 0");
  each((sc) => (sc.runAsUser === 0 ? "Running as Non-root user: runAsUser is 0" : null));
  const seccompOk = (type: string | undefined) => type === "RuntimeDefault" || type === "Localhost";
  if (podSc.seccompProfile?.type === "Unconfined") found.push("Seccomp: pod is Unconfined");
  each((sc) => {
    const type = sc.seccompProfile?.type ?? podSc.seccompProfile?.type;
    return seccompOk(type) ? null : `Seccomp: seccompProfile.type is ${type ?? "unset"}`;
  });
  each((sc) => {
    if (!sc.capabilities?.drop?.includes("ALL")) return "Capabilities: drop does not hold ALL";
    const added = (sc.capabilities.add ?? []).filter((cap) => cap !== "NET_BIND_SERVICE");
    return added.length > 0 ? `Capabilities: adds ${added.join(", ")}` : null;
  });
  return found;
}
