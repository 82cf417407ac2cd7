import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import type { FileOptions } from "../../api/endpoints";
import { columnsSample } from "./column-mapping";

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The chosen file's columns and first rows as `options` read them (POST /api/imports/columns),
 * asked again 300 ms after the options last changed. An answer to options since changed never
 * shows: each is cached under its own key and the request it belongs to is aborted. `token`
 * tells files apart (a new choice of the same name is another file).
 */
export function useColumnsPreview(
  file: File | null,
  token: number,
  options: FileOptions,
  enabled: boolean,
) {
  const key = useDebounced(JSON.stringify(options), 300);
  return useQuery({
    queryKey: qk.imports.columns(token, key),
    queryFn: ({ signal }) =>
      endpoints.imports.columns(
        columnsSample(file!),
        file!.name,
        JSON.parse(key) as FileOptions,
        signal,
      ),
    enabled: enabled && file !== null,
    // While a changed mapping is asked, the last answer for this file stays (never another file's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === token ? keepPreviousData(previous) : undefined,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
