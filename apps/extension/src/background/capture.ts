// Reads the page in the tab as the browser rendered it (after its scripts ran), with the
// activeTab grant the user gave by clicking the extension's button. Nothing is fetched again:
// the service extracts from exactly this HTML.
import type { Capture } from "../shared/protocol";
import { RESTRICTED, captureFailed } from "../shared/user-error";
import { isReadablePage, pageAddress } from "../shared/readable-page";
import { ServiceError } from "./service-client";

/** The service's limit on `html` (5 MiB of text), less room for the rest of the body. */
const MAX_HTML_CHARS = 5_000_000;

/**
 * Runs in the page, so it must not close over anything. A page over the limit loses what the
 * service never reads first (styles, SVG, frames), then scripts other than JSON-LD.
 */
function capturePage(maxChars: number): { url: string; title: string; html: string } {
  const doctype = "<!doctype html>\n";
  let html = doctype + document.documentElement.outerHTML;
  if (html.length > maxChars) {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    copy
      .querySelectorAll("style, svg, noscript, iframe, template, link[rel='stylesheet']")
      .forEach((node) => node.remove());
    html = doctype + copy.outerHTML;
    if (html.length > maxChars) {
      copy
        .querySelectorAll("script:not([type='application/ld+json'])")
        .forEach((node) => node.remove());
      html = doctype + copy.outerHTML;
    }
  }
  return { url: location.href, title: document.title, html };
}

export async function captureTab(tabId: number): Promise<Capture> {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab) throw new ServiceError(captureFailed("the tab was closed"));
  if (tab.url !== undefined && !isReadablePage(tab.url)) throw new ServiceError(RESTRICTED);
  let page: { url: string; title: string; html: string } | undefined;
  try {
    const [result] = await chrome.scripting.executeScript({
      target: { tabId },
      func: capturePage,
      args: [MAX_HTML_CHARS],
    });
    page = result?.result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // No grant: the tab was navigated since the button was clicked, or this window was opened for
    // another page.
    if (/cannot access|permission|must request/i.test(message)) {
      throw new ServiceError(
        captureFailed(
          "Chrome gives the extension a page only when you click its button on that page: click it again",
        ),
      );
    }
    if (tab.url === undefined) throw new ServiceError(RESTRICTED);
    throw new ServiceError(captureFailed(message));
  }
  if (!page) throw new ServiceError(captureFailed("the page gave nothing back"));
  if (!isReadablePage(page.url)) throw new ServiceError(RESTRICTED);
  if (page.html.length > MAX_HTML_CHARS)
    throw new ServiceError({
      kind: "rejected",
      message: "This page is too large to send, even without its styles and scripts.",
    });
  return { url: pageAddress(page.url), title: page.title, html: page.html };
}
