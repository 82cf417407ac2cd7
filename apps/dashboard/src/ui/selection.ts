// The catalog's product selection, kept in sessionStorage (per tab; it survives reloads and
// navigating to a product and back, and a selection of 500 ids would not fit well in a URL).
import { useCallback, useSyncExternalStore } from "react";

const KEY = "catalog.selection";
/** POST /api/products/publish takes at most 500 products at once. */
export const MAX_SELECTION = 500;

const listeners = new Set<() => void>();
let cache: { raw: string | null; ids: string[] } = { raw: null, ids: [] };

function read(): string[] {
  const raw = sessionStorage.getItem(KEY);
  if (raw === cache.raw) return cache.ids;
  let ids: string[] = [];
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) ids = parsed.filter((v): v is string => typeof v === "string");
  } catch {
    ids = [];
  }
  cache = { raw, ids };
  return ids;
}

function write(ids: string[]): void {
  const unique = [...new Set(ids)].slice(0, MAX_SELECTION);
  if (unique.length === 0) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify(unique));
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function clearSelection(): void {
  write([]);
}

export function useSelection() {
  const ids = useSyncExternalStore(subscribe, read, read);
  const toggle = useCallback((id: string, on: boolean) => {
    const current = read();
    write(on ? [...current, id] : current.filter((x) => x !== id));
  }, []);
  const setMany = useCallback((many: string[], on: boolean) => {
    const current = read();
    const drop = new Set(many);
    write(on ? [...current, ...many] : current.filter((x) => !drop.has(x)));
  }, []);
  const replace = useCallback((many: string[]) => write(many), []);
  return { ids, set: new Set(ids), toggle, setMany, replace, clear: clearSelection };
}
