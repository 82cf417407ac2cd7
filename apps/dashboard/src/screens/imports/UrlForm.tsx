// The "Web pages" tab: one address a line, counted and checked as it is typed; obviously bad
// lines are listed with a fix before anything is sent.
import { useMemo, useState, type SubmitEvent } from "react";
import type { WatchBody } from "@catalog/gateway/api-types";
import { errorMessage } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { Field } from "../../ui/Field";
import { refusedUrls } from "../../lib/fetch-reasons";
import { RefusedLines } from "./RefusedLines";
import { useStartImport } from "./useStartImport";
import {
  MAX_URLS,
  MISSING_SCHEME,
  checkUrlLines,
  countText,
  previewLabel,
  refusedLines,
  submitProblem,
  withScheme,
  withoutLines,
  withoutUrlIndex,
  type RefusedLine,
} from "./url-lines";

export function UrlForm() {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<RefusedLine[]>([]);
  const [watch, setWatch] = useState<WatchBody["schedule"]>(null);
  const start = useStartImport((urls: string[]) => endpoints.imports.startUrls(urls, watch));
  const check = useMemo(() => checkUrlLines(text), [text]);
  const tooMany = check.urls.length > MAX_URLS;
  const missingScheme = check.bad.some((b) => b.problem === MISSING_SCHEME);

  function edit(next: string) {
    setText(next);
    setError(null);
    setRefused([]);
  }

  function submit(e: SubmitEvent) {
    e.preventDefault();
    const problem = submitProblem(check);
    setError(problem);
    if (problem) return;
    start.mutate(check.urls, {
      onError: (err) => {
        // The service names every address it refuses: each is listed at its line.
        const lines = refusedLines(text, check.urls, refusedUrls(errorMessage(err)));
        setRefused(lines);
        setError(
          lines.length > 0
            ? `Remove the ${lines.length === 1 ? "address" : `${lines.length} addresses`} listed below, or correct ${lines.length === 1 ? "it" : "them"}`
            : withoutUrlIndex(errorMessage(err)),
        );
      },
    });
  }

  return (
    <form className="card-body stack" onSubmit={submit} noValidate>
      <Field
        label="Product page addresses, one per line"
        hint={`Up to ${MAX_URLS} pages at once. Each page is read and previewed; pages without a product show as errors.`}
        error={error}
      >
        {(p) => (
          <textarea
            {...p}
            className="textarea mono url-input"
            rows={8}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            placeholder={
              "https://shop.example.com/products/blue-mug\nhttps://shop.example.com/products/red-mug"
            }
            value={text}
            onChange={(e) => edit(e.target.value)}
          />
        )}
      </Field>
      <p
        className={`small url-count${check.bad.length || tooMany ? " url-count-bad" : ""}`}
        aria-live="polite"
      >
        {countText(check)}
      </p>
      {check.bad.length > 0 ? (
        <div className="alert alert-warn bad-lines" role="status">
          <div>
            <p>
              <strong>
                {check.bad.length === 1
                  ? "This line does not look like a page address:"
                  : `These ${check.bad.length} lines do not look like page addresses:`}
              </strong>
            </p>
            <ul>
              {check.bad.slice(0, 8).map((b) => (
                <li key={b.line}>
                  Line {b.line}:{" "}
                  <code>{b.text.length > 80 ? `${b.text.slice(0, 80)}…` : b.text}</code> —{" "}
                  {b.problem}
                </li>
              ))}
              {check.bad.length > 8 ? <li>…and {check.bad.length - 8} more</li> : null}
            </ul>
          </div>
          <span className="row">
            {missingScheme ? (
              <button type="button" className="btn btn-sm" onClick={() => edit(withScheme(text))}>
                Add https:// where missing
              </button>
            ) : null}
            <button
              type="button"
              className="btn btn-sm"
              onClick={() =>
                edit(
                  withoutLines(
                    text,
                    check.bad.map((b) => b.line),
                  ),
                )
              }
            >
              Remove {check.bad.length === 1 ? "it" : "them"}
            </button>
          </span>
        </div>
      ) : null}
      {refused.length > 0 ? (
        <RefusedLines
          lines={refused}
          onRemove={() =>
            edit(
              withoutLines(
                text,
                refused.map((r) => r.line),
              ),
            )
          }
        />
      ) : null}
      <div className="row">
        <label className="row small">
          <input
            type="checkbox"
            checked={watch !== null}
            onChange={(e) => setWatch(e.target.checked ? "daily" : null)}
          />
          Watch these pages
        </label>
        {watch !== null ? (
          <select
            className="select"
            style={{ width: "auto" }}
            aria-label="How often to check the pages"
            value={watch}
            onChange={(e) => setWatch(e.target.value as NonNullable<WatchBody["schedule"]>)}
          >
            <option value="hourly">every hour</option>
            <option value="daily">every day</option>
            <option value="weekly">every week</option>
          </select>
        ) : null}
        <span className="small muted">
          The stored products are checked again on this schedule; a new price or stock on the page
          updates them.
        </span>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={start.isPending}>
          {start.isPending ? "Starting…" : previewLabel(check.urls.length)}
        </button>
      </div>
    </form>
  );
}
