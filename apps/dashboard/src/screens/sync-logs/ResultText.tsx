// A result of a sync log on one line, with "Show all" when the line cannot hold it or there is
// `more` to it (a failure's raw message).
import { useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";

export function ResultText({
  children,
  tone,
  more,
}: {
  children: ReactNode;
  tone?: "bad";
  more?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const textRef = useRef<HTMLSpanElement>(null);
  const id = useId();

  // Measured while folded, again whenever the cell's width changes (a resized window, a phone
  // turned).
  useLayoutEffect(() => {
    const el = textRef.current;
    if (!el || open) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [open, children]);

  return (
    <div className="sync-result" data-testid="sync-result">
      <div id={id} className="sync-result-body">
        <span
          ref={textRef}
          className={`sync-result-text${open ? "" : " folded"}${tone === "bad" ? " text-bad" : ""}`}
        >
          {children}
        </span>
        {open ? more : null}
      </div>
      {overflows || open || more ? (
        <button
          type="button"
          className="link-button small"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Show less" : "Show all"}
        </button>
      ) : null}
    </div>
  );
}
