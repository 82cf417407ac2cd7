// Loads Prisma's schema engine WebAssembly once per process. The package's main entry imports
// the .wasm as an ES module; the module is instantiated here instead, against the package's own
// JS glue as that entry would do, so that the timers the engine arms can be tracked (below).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import * as bindings from "@prisma/schema-engine-wasm/schema_engine_bg";

// A Rust panic inside the engine reports its message here, then surfaces as a bare
// "RuntimeError: unreachable"; the Prisma CLI installs the same global to recover the message.
interface PanicRegistry {
  set_message(message: string): void;
  get(): string;
}
const globals = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: PanicRegistry };

export function lastEnginePanic(): string | undefined {
  return globals.PRISMA_WASM_PANIC_REGISTRY?.get() || undefined;
}

function installPanicRegistry(): void {
  if (globals.PRISMA_WASM_PANIC_REGISTRY) return;
  let last = "";
  globals.PRISMA_WASM_PANIC_REGISTRY = {
    set_message: (message) => (last = message),
    get: () => last,
  };
}

// The engine arms timers it never clears (a 10 s timeout around its migration advisory lock, for
// one), which would keep a finished process alive that long. They are tracked, and cleared once
// no engine is in use any more.
const pendingTimers = new Set<NodeJS.Timeout>();
let users = 0;

function withTrackedTimers(imports: object): object {
  const name = Object.keys(imports).find((key) => key.startsWith("__wbg_setTimeout_"));
  if (!name) return imports;
  const setTimer = (callback: () => void, ms: number) => {
    const timer = setTimeout(() => {
      pendingTimers.delete(timer);
      callback();
    }, ms >>> 0);
    pendingTimers.add(timer);
    return timer;
  };
  return { ...imports, [name]: setTimer };
}

/** Marks an engine in use; the returned function ends that use. */
export function holdEngineTimers(): () => void {
  users++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--users > 0) return;
    for (const timer of pendingTimers) clearTimeout(timer);
    pendingTimers.clear();
  };
}

// Neither the project's lib settings (no DOM) nor @types/node declare the WebAssembly global.
const { WebAssembly: wasmApi } = globalThis as unknown as {
  WebAssembly: {
    instantiate(
      bytes: Uint8Array,
      imports: object,
    ): Promise<{ instance: { exports: Record<string, unknown> } }>;
  };
};

let loaded: Promise<typeof bindings.SchemaEngine> | undefined;

export function loadSchemaEngine(): Promise<typeof bindings.SchemaEngine> {
  loaded ??= (async () => {
    installPanicRegistry();
    const gluePath = createRequire(import.meta.url).resolve(
      "@prisma/schema-engine-wasm/schema_engine_bg",
    );
    const bytes = await readFile(gluePath.replace(/\.js$/, ".wasm"));
    const { instance } = await wasmApi.instantiate(bytes, {
      "./schema_engine_bg.js": withTrackedTimers(bindings),
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings.SchemaEngine;
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
