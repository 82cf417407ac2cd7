import { useEffect, useState, type ReactNode } from "react";
import type { ExtensionPreview, ProductFields } from "../shared/api";
import type { Capture, Pairing } from "../shared/protocol";
import { dashboardUrl } from "../shared/service-address";
import type { UserError } from "../shared/user-error";
import { ErrorView } from "./ErrorView";
import { ListingPicker } from "./ListingPicker";
import { ask } from "./messaging";
import { PairForm } from "./PairForm";
import { ProductPreview } from "./ProductPreview";

/** The popup: pair once, then read the page in the tab the user clicked the button on. */
export function App() {
  const [pairing, setPairing] = useState<Pairing | null | undefined>(undefined);
  const [pairingAgain, setPairingAgain] = useState(false);
  useEffect(() => {
    void ask("pairing", {}).then((reply) => setPairing(reply.ok ? reply.value : null));
  }, []);

  if (pairing === undefined)
    return (
      <Frame>
        <Busy text="Starting…" />
      </Frame>
    );
  if (pairing === null || pairingAgain) {
    return (
      <Frame>
        <PairForm
          initialUrl={pairing?.serviceUrl}
          onPaired={(next) => {
            setPairing(next);
            setPairingAgain(false);
          }}
        />
      </Frame>
    );
  }
  return (
    <Frame
      pairing={pairing}
      onUnpair={async () => {
        await ask("unpair", {});
        setPairing(null);
      }}
    >
      <PageView pairing={pairing} onPairAgain={() => setPairingAgain(true)} />
    </Frame>
  );
}

type PageState =
  | { kind: "reading" }
  | { kind: "home" }
  | { kind: "failed"; error: UserError }
  | { kind: "read"; capture: Capture; preview: ExtensionPreview; byHand?: boolean };

/**
 * The tab to read: the one named in the address (the popup opened in a window of its own), else
 * the active tab; none when this page is itself that tab (opened from the extensions page).
 */
async function targetTab(): Promise<number | null> {
  const named = new URLSearchParams(location.search).get("tab");
  if (named && /^\d+$/.test(named)) return Number(named);
  const [active] = await chrome.tabs.query({ active: true, currentWindow: true });
  const self = await chrome.tabs.getCurrent();
  return active?.id !== undefined && active.id !== self?.id ? active.id : null;
}

function PageView({ pairing, onPairAgain }: { pairing: Pairing; onPairAgain: () => void }) {
  const [state, setState] = useState<PageState>({ kind: "reading" });
  const [attempt, setAttempt] = useState(0);
  const [tabId, setTabId] = useState<number | null>(null);

  useEffect(() => {
    let gone = false;
    void (async () => {
      const tab = await targetTab();
      setTabId(tab);
      if (tab === null) return setState({ kind: "home" });
      const reply = await ask("preview", { tabId: tab });
      if (gone) return;
      setState(
        reply.ok ? { kind: "read", ...reply.value } : { kind: "failed", error: reply.error },
      );
    })();
    return () => {
      gone = true;
    };
  }, [attempt]);

  const retry = () => {
    setState({ kind: "reading" });
    setAttempt((n) => n + 1);
  };
  const inWindow = new URLSearchParams(location.search).has("tab");
  const body = ((): ReactNode => {
    switch (state.kind) {
      case "reading":
        return <Busy text="Reading the page…" />;
      case "home":
        return <Home pairing={pairing} />;
      case "failed":
        return <ErrorView error={state.error} onRetry={retry} onPairAgain={onPairAgain} />;
      case "read": {
        const { preview, capture } = state;
        if (preview.page === "product")
          return (
            <ProductPreview
              key={attempt}
              pairing={pairing}
              capture={capture}
              preview={preview}
              onPairAgain={onPairAgain}
            />
          );
        if (preview.page === "listing")
          return <ListingPicker pairing={pairing} preview={preview} onPairAgain={onPairAgain} />;
        return (
          <div className="stack">
            <div
              className={`alert ${preview.page === "blocked" ? "alert-warn" : "alert-info"}`}
              role="status"
            >
              <p>{preview.message}</p>
            </div>
            <div className="actions">
              <button type="button" className="btn btn-primary" onClick={retry}>
                Try again
              </button>
              {preview.page === "unknown" ? (
                <button
                  type="button"
                  className="btn"
                  onClick={() =>
                    setState({ kind: "read", capture, preview: byHand(capture), byHand: true })
                  }
                >
                  Enter it by hand
                </button>
              ) : null}
            </div>
          </div>
        );
      }
    }
  })();
  return (
    <>
      {body}
      {tabId !== null && !inWindow && state.kind !== "reading" ? (
        <button
          type="button"
          className="link-button window-link"
          onClick={() => openInWindow(tabId)}
        >
          Open in a larger window
        </button>
      ) : null}
    </>
  );
}

/** A page the service found nothing on: the form starts empty but for the page's title. */
function byHand(capture: Capture): Extract<ExtensionPreview, { page: "product" }> {
  const product: ProductFields = {
    title: capture.title,
    sku: null,
    description: null,
    price: null,
    images: [],
    brand: null,
    gtin: null,
    mpn: null,
    availability: null,
    quantity: null,
    variants: [],
    attributes: {},
    sourceUrl: capture.url,
  };
  return {
    action: "preview",
    page: "product",
    wouldBe: "created",
    match: null,
    changes: {},
    product,
  };
}

function openInWindow(tabId: number) {
  void chrome.windows.create({
    url: chrome.runtime.getURL(`popup.html?tab=${tabId}`),
    type: "popup",
    width: 480,
    height: 760,
  });
  window.close();
}

function Home({ pairing }: { pairing: Pairing }) {
  return (
    <div className="stack">
      <div className="alert alert-ok" role="status">
        <p>
          <strong>Paired with {pairing.org.name}.</strong>
        </p>
      </div>
      <p>
        Open a shop's product page (or a category page) and click the Catalog button in the toolbar:
        you will see what it reads before anything is saved.
      </p>
    </div>
  );
}

function Busy({ text }: { text: string }) {
  return (
    <p className="busy" role="status">
      <span className="spinner" aria-hidden="true" />
      {text}
    </p>
  );
}

function Frame({
  pairing,
  onUnpair,
  children,
}: {
  pairing?: Pairing;
  onUnpair?: () => Promise<void>;
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="frame">
      <header className="topbar">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Catalog
        </span>
        {pairing ? (
          <span className="org" title={`Key “${pairing.keyName}” on ${pairing.serviceUrl}`}>
            {pairing.org.name}
          </span>
        ) : null}
      </header>
      <main className="content">{children}</main>
      {pairing && onUnpair ? (
        <footer className="footer">
          {confirming ? (
            <>
              <span>Forget this pairing? You will need a key to pair again.</span>
              <button
                type="button"
                className="btn btn-sm btn-danger"
                onClick={() => void onUnpair()}
              >
                Unpair
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <a
                href={dashboardUrl(pairing.serviceUrl, "/products")}
                target="_blank"
                rel="noreferrer"
              >
                Open the dashboard
              </a>
              <button type="button" className="link-button" onClick={() => setConfirming(true)}>
                Unpair
              </button>
            </>
          )}
        </footer>
      ) : null}
    </div>
  );
}
