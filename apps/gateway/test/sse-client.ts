// A minimal server-sent events reader over a real socket, as a browser's EventSource reads them.
import { get, type IncomingHttpHeaders, type IncomingMessage } from "node:http";

export type SseMessage = { event: string; data: string } | { comment: string };

export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The next event or comment; null once the server closed the stream. */
  next(timeoutMs?: number): Promise<SseMessage | null>;
  /** The next `event:` (skipping comments), parsed as JSON. */
  nextEvent(timeoutMs?: number): Promise<{ event: string; data: unknown } | null>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    // No agent: one connection per stream, closed with it, as a browser tab's EventSource.
    const request = get(
      url,
      { headers: { accept: "text/event-stream", ...headers }, agent: false },
      (res) => {
        res.setEncoding("utf8");
        resolve(sseStream(res, () => request.destroy()));
      },
    );
    request.on("error", reject);
  });
}

function sseStream(res: IncomingMessage, destroy: () => void): SseStream {
  let buffer = "";
  let done = false;
  const queued: SseMessage[] = [];
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  res.on("data", (chunk: string) => {
    buffer += chunk;
    parse();
    notify();
  });
  res.on("end", () => {
    done = true;
    notify();
  });
  res.on("close", () => {
    done = true;
    notify();
  });
  res.on("error", () => {
    done = true;
    notify();
  });

  const parse = () => {
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split("\n");
      if (lines.every((l) => l.startsWith(":"))) {
        queued.push({ comment: lines.map((l) => l.slice(1).trim()).join("\n") });
        continue;
      }
      let event = "message";
      const data: string[] = [];
      for (const line of lines) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      queued.push({ event, data: data.join("\n") });
    }
  };

  const next = async (timeoutMs = 10_000): Promise<SseMessage | null> => {
    const deadline = Date.now() + timeoutMs;
    while (queued.length === 0) {
      if (done) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no server-sent event within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
    return queued.shift()!;
  };

  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    next,
    async nextEvent(timeoutMs) {
      for (;;) {
        const message = await next(timeoutMs);
        if (message === null) return null;
        if ("event" in message)
          return { event: message.event, data: message.data ? JSON.parse(message.data) : null };
      }
    },
    close: destroy,
  };
}
