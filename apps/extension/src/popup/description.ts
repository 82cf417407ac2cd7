// The dashboard's ui/description.ts is this module's twin (the two apps share no runtime code).
// Product descriptions come from the API in one form: HTML the service cleaned against its
// allow-list on every read, plain text having become <p> paragraphs with <br /> line breaks (see
// the API's `description` field). The popup edits and diffs it as text wherever it was text.

// Exactly what the service makes of plain text: paragraphs and line breaks around escaped text.
const TEXT_SHAPED = /^(?:<p>(?:[^<>&]|&(?:amp|lt|gt);|<br \/>)*<\/p>)+$/;
const unescape = (text: string) =>
  text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** A description that was plain text, as it was written; null when it holds other markup. */
function asWritten(html: string): string | null {
  if (!TEXT_SHAPED.test(html)) return null;
  return html
    .slice("<p>".length, -"</p>".length)
    .split("</p><p>")
    .map((p) => unescape(p.replace(/<br \/>/g, "\n")))
    .join("\n\n");
}

/**
 * What the edit form shows: the text as it was written, or the HTML of a description with markup.
 */
export const editableDescription = (html: string | null): string =>
  html === null ? "" : (asWritten(html) ?? html);

/**
 * A description read as text (diffs, history): paragraphs, list items and rows on lines of their
 * own.
 */
export function descriptionText(html: string): string {
  const written = asWritten(html);
  if (written !== null) return written;
  // A document DOMParser makes is never rendered: nothing in it runs or loads.
  const body = new DOMParser().parseFromString(html, "text/html").body;
  body.querySelectorAll("br").forEach((br) => br.replaceWith("\n"));
  body
    .querySelectorAll("p, h2, h3, h4, h5, h6, blockquote, table, ul, ol, dl")
    .forEach((block) => block.append("\n\n"));
  body.querySelectorAll("div, li, tr, dt, dd").forEach((line) => line.append("\n"));
  return (body.textContent ?? "")
    .replace(/[ \t]*\n[ \t]*/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
