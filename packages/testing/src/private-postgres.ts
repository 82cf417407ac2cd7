import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, createDatabase } from "@catalog/db/migrations";
import { freePort } from "./free-port.js";

/**
 * A PostgreSQL server of a test's own, on a free loopback port with a fresh data folder, that the
 * test may stop and start again (a database outage). `url` names its migrated database `catalog`.
 */
export interface PrivatePostgres {
  url: string;
  /**
   * Fast shutdown (sessions are ended with admin_shutdown), resolved once the server has exited.
   */
  stop(): Promise<void>;
  /**
   * Starts the stopped server again on the same port and data (if it runs, nothing); resolved once
   * it accepts connections.
   */
  start(): Promise<void>;
  /** Stops the server if it runs and removes its folder. */
  close(): Promise<void>;
}

const READY = /database system is ready to accept connections/;

/** The newest PostgreSQL's programs (Debian keeps them out of PATH), or PG_BIN. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error(
      "no PostgreSQL in /usr/lib/postgresql: install it, or set PG_BIN to the folder holding initdb and postgres",
    );
  return `/usr/lib/postgresql/${newest}/bin`;
}

/** initdb and postgres refuse to run as root: as root they run as the `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

/**
 * Starts a private PostgreSQL (initdb in a temp folder, fsync off) and migrates its `catalog`
 * database with the project's migration runner. The server is also stopped if the process exits
 * without close(), so a failing test leaves none behind.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), "catalog-pg-"));
  const data = join(dir, "data");
  if (user) chownSync(dir, user.uid, user.gid);
  const port = await freePort();
  const options = { ...user, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8" } };
  let server: ChildProcess | null = null;

  // Immediate shutdown: the postmaster takes its backends with it.
  const killOnExit = () => {
    server?.kill("SIGQUIT");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);

  const start = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      const child = spawn(
        `${bin}/postgres`,
        [
          "-D",
          data,
          "-p",
          String(port),
          "-k",
          dir,
          "-c",
          "listen_addresses=127.0.0.1",
          "-c",
          "fsync=off",
          "-c",
          "full_page_writes=off",
          "-c",
          "synchronous_commit=off",
        ],
        { ...options, stdio: ["ignore", "ignore", "pipe"] },
      );
      let log = "";
      child.stderr.setEncoding("utf8");
      const onLog = (chunk: string) => {
        log = (log + chunk).slice(-4000);
        if (READY.test(log)) {
          child.stderr.off("data", onLog);
          child.stderr.resume();
          resolve();
        }
      };
      child.stderr.on("data", onLog);
      child.once("error", reject);
      child.once("exit", (code) => {
        if (server === child) server = null;
        reject(new Error(`postgres exited (${code}) before it was ready:\n${log}`));
      });
      server = child;
    });

  const stop = async () => {
    const child = server;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGINT");
    await exited;
  };

  const close = async () => {
    await stop();
    process.off("exit", killOnExit);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    execFileSync(
      `${bin}/initdb`,
      [
        "-D",
        data,
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--no-sync",
        "--no-instructions",
      ],
      { ...options, stdio: "pipe" },
    );
    await start();
    const url = `postgresql://postgres@127.0.0.1:${port}/catalog`;
    await createDatabase(url);
    await applyMigrations(url);
    return { url, stop, start, close };
  } catch (error) {
    await close();
    throw error;
  }
}
