// A run followed live: /api/publish-runs/:id/events (`run` replaces the cached run, `end` closes
// the stream), polling every 2 s if the stream fails.
import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PublishRun } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";

export type Mode = "connecting" | "live" | "polling" | "done";

/** Browsers without server-sent events poll from the start. */
const CAN_STREAM = typeof EventSource !== "undefined";

/** The run, kept current by its event stream, or by polling when the stream fails. */
export function useLiveRun(id: string) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>(CAN_STREAM ? "connecting" : "polling");
  const [generation, setGeneration] = useState(0);
  const run = useQuery({
    queryKey: qk.runs.detail(id),
    queryFn: () => endpoints.publishRuns.get(id),
    staleTime: 0,
    refetchInterval: (q) =>
      mode === "polling" && q.state.data && !q.state.data.finished ? 2000 : false,
  });

  // The stream opens once the run is known to exist (a wrong link gets one 404, not two).
  const loaded = run.data !== undefined;
  useEffect(() => {
    if (!loaded || !CAN_STREAM) return;
    const source = new EventSource(endpoints.publishRuns.eventsUrl(id), { withCredentials: true });
    source.addEventListener("open", () => setMode("live"));
    source.addEventListener("run", (e) => {
      try {
        queryClient.setQueryData(
          qk.runs.detail(id),
          JSON.parse((e as MessageEvent<string>).data) as PublishRun,
        );
        setMode("live");
      } catch {
        // A malformed event: the next one (or the poll) brings the run.
      }
    });
    source.addEventListener("end", () => {
      source.close();
      setMode("done");
      void queryClient.invalidateQueries({
        queryKey: qk.runs.all,
        exact: false,
        refetchType: "none",
      });
      void queryClient.invalidateQueries({ queryKey: qk.products.all });
    });
    source.onerror = () => {
      // The stream broke (or never started): poll instead, and get the latest state now.
      source.close();
      setMode("polling");
      void queryClient.invalidateQueries({ queryKey: qk.runs.detail(id) });
    };
    return () => source.close();
  }, [id, generation, queryClient, loaded]);

  // Follow it again (after "Retry failed"): a new stream.
  const follow = () => {
    if (CAN_STREAM) setMode("connecting");
    setGeneration((g) => g + 1);
  };
  return { run, mode, follow };
}

export function modeText(mode: Mode, finished: boolean): string {
  if (finished && mode !== "live") return "";
  return mode === "live"
    ? "Live"
    : mode === "polling"
      ? "Refreshing every 2 s"
      : mode === "connecting"
        ? "Connecting…"
        : "";
}
