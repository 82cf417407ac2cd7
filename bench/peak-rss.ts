import { readFile } from "node:fs/promises";

async function statusField(pid: number, field: string): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

async function children(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  return text.split(/\s+/).filter(Boolean).map(Number);
}

/**
 * Peak resident memory (VmHWM) of a process tree, in bytes: the tsx launcher and the server it
 * runs.
 */
export async function peakRss(pid: number): Promise<number> {
  const pids = [pid, ...(await children(pid))];
  const peaks = await Promise.all(pids.map((p) => statusField(p, "VmHWM")));
  return Math.max(0, ...peaks);
}
