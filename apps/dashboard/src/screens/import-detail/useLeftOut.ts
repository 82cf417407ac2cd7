import { useCallback, useEffect, useState } from "react";

/** The rows the user leaves out, per import, kept for this tab (a reload keeps the choice). */
export function useLeftOut(id: string) {
  const key = `catalog.import.${id}.leftOut`;
  const [rows, setRows] = useState<Set<number>>(() => readRows(key));
  useEffect(() => {
    if (rows.size === 0) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify([...rows]));
  }, [key, rows]);
  const set = useCallback(
    (many: number[], leaveOut: boolean) =>
      setRows((prev) => {
        const next = new Set(prev);
        for (const n of many)
          if (leaveOut) next.add(n);
          else next.delete(n);
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setRows(new Set()), []);
  return { rows, set, clear };
}

export type LeftOut = ReturnType<typeof useLeftOut>;

function readRows(key: string): Set<number> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(key) ?? "[]");
    return new Set(
      Array.isArray(parsed) ? parsed.filter((n): n is number => Number.isInteger(n)) : [],
    );
  } catch {
    return new Set();
  }
}
