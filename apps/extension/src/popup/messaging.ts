// The popup's one way to the service worker (src/background/service-worker.ts).
import type { Message, Reply, RequestType, Requests } from "../shared/protocol";

export async function ask<T extends RequestType>(
  type: T,
  request: Requests[T]["request"],
): Promise<Reply<T>> {
  try {
    const reply = await chrome.runtime.sendMessage<Message<T>, Reply<T> | undefined>({
      type,
      ...request,
    } as Message<T>);
    return (
      reply ?? {
        ok: false,
        error: {
          kind: "server",
          message: "The extension's background did not answer: reload the extension and try again.",
        },
      }
    );
  } catch (error) {
    return {
      ok: false,
      error: {
        kind: "server",
        message: `The extension's background could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}
