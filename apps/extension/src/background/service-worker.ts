// The extension's background: answers the popup's requests (src/shared/protocol.ts). It reads
// pages and makes every call to the service; it keeps nothing but the pairing, so Chrome may stop
// it between requests at no cost.
import type {
  ExtensionMe,
  ExtensionPreview,
  Import,
  ImportRow,
  IngestResult,
  List,
} from "../shared/api";
import type { Message, Pairing, Reply, RequestType, Requests } from "../shared/protocol";
import { normalizeServiceUrl } from "../shared/service-address";
import { UNPAIRED } from "../shared/user-error";
import { captureTab } from "./capture";
import { forgetPairing, readPairing, savePairing } from "./pairing-store";
import { ServiceError, callService } from "./service-client";

type Handlers = { [T in RequestType]: (message: Message<T>) => Promise<Requests[T]["answer"]> };

async function paired(): Promise<Pairing> {
  const pairing = await readPairing();
  if (!pairing) throw new ServiceError(UNPAIRED);
  return pairing;
}

const handlers: Handlers = {
  pairing: () => readPairing(),

  async pair({ serviceUrl, key }) {
    const address = normalizeServiceUrl(serviceUrl);
    if (!address.ok) throw new ServiceError({ kind: "rejected", message: address.error });
    const trimmed = key.trim();
    if (!/^csk_\S+$/.test(trimmed))
      throw new ServiceError({
        kind: "rejected",
        message:
          "An extension key starts with csk_: copy it from the dashboard's Extension keys screen.",
      });
    const me = await callService<ExtensionMe>(
      { serviceUrl: address.url, key: trimmed },
      "GET",
      "/me",
    );
    const pairing: Pairing = {
      serviceUrl: address.url,
      key: trimmed,
      org: me.org,
      keyName: me.key.name,
    };
    await savePairing(pairing);
    return pairing;
  },

  async unpair() {
    await forgetPairing();
    return null;
  },

  async preview({ tabId }) {
    const pairing = await paired();
    const capture = await captureTab(tabId);
    const preview = await callService<ExtensionPreview>(pairing, "POST", "/ingest", {
      url: capture.url,
      html: capture.html,
      persist: false,
    });
    return { capture, preview };
  },

  async save({ capture, edits }) {
    const body = {
      url: capture.url,
      html: capture.html,
      ...(Object.keys(edits).length > 0 ? { product: edits } : {}),
    };
    return callService<IngestResult>(await paired(), "POST", "/ingest", body);
  },

  startImport: async ({ urls }) =>
    callService<Import>(await paired(), "POST", "/imports", { urls }),
  import: async ({ id }) =>
    callService<Import>(await paired(), "GET", `/imports/${encodeURIComponent(id)}`),
  importRows: async ({ id, page }) =>
    callService<List<ImportRow>>(
      await paired(),
      "GET",
      `/imports/${encodeURIComponent(id)}/rows?page=${page}&pageSize=50`,
    ),
  storeImport: async ({ id, skipRows }) =>
    callService<Import>(await paired(), "POST", `/imports/${encodeURIComponent(id)}/store`, {
      skipRows,
    }),
};

async function dispatch<T extends RequestType>(message: Message<T>): Promise<Reply<T>> {
  try {
    const handler = handlers[message.type] as (m: Message<T>) => Promise<Requests[T]["answer"]>;
    return { ok: true, value: await handler(message) };
  } catch (error) {
    if (error instanceof ServiceError) return { ok: false, error: error.userError };
    console.error("catalog extension:", error);
    return {
      ok: false,
      error: {
        kind: "server",
        message: `Something went wrong in the extension: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}

chrome.runtime.onMessage.addListener((message: Message, sender, sendResponse) => {
  // Only this extension's own pages talk to it.
  if (sender.id !== chrome.runtime.id || !(message?.type in handlers)) return false;
  void dispatch(message).then(sendResponse);
  return true; // the answer comes asynchronously
});
