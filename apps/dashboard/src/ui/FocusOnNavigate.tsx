// The one place focus follows navigation: each time the address's path changes, focus goes to the
// new screen's heading once it shows (a screen that loads first shows it a moment later), unless
// the new screen has put focus somewhere of its own, or the user clicks or types meanwhile. The
// first screen of a page load keeps the browser's start, at the top of the page.
import { useEffect, useRef } from "react";
import { useRouterState } from "@tanstack/react-router";
import { moveFocusTo, screenHeading } from "./focus";

/** Focus that a screen chose itself: anywhere in its main area. */
const screenHasFocus = () => {
  const active = document.activeElement;
  return (
    active !== null &&
    active !== document.body &&
    !!document.getElementById("main")?.contains(active) &&
    active.id !== "main"
  );
};

export function FocusOnNavigate() {
  const path = useRouterState({ select: (s) => s.resolvedLocation?.pathname });
  const seen = useRef<string | undefined>(undefined);

  useEffect(() => {
    // Once per path (React's strict mode runs a mount's effect twice).
    if (path === undefined || seen.current === path) return;
    const first = seen.current === undefined;
    seen.current = path;
    if (first) return;

    const settle = () => {
      if (screenHasFocus()) return true;
      return moveFocusTo(screenHeading(), false);
    };
    if (settle()) return;
    const observer = new MutationObserver(() => {
      if (settle()) stop();
    });
    const stop = () => {
      observer.disconnect();
      window.removeEventListener("pointerdown", stop, true);
      window.removeEventListener("keydown", stop, true);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    window.addEventListener("pointerdown", stop, true);
    window.addEventListener("keydown", stop, true);
    return stop;
  }, [path]);

  return null;
}
