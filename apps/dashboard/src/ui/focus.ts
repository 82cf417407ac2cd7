// Where keyboard focus goes when what it was on goes away: a new screen, a form that closed on
// saving, a result that replaced the button that asked for it. Without this it falls to the page's
// body, and a keyboard or screen-reader user starts again from the top.
import { useCallback } from "react";

/**
 * Focuses `el` (a heading or a message gets tabIndex -1, so it can hold focus without joining the
 * Tab order). `scroll` false keeps the page still, for a heading already in view.
 */
export function moveFocusTo(el: HTMLElement | null | undefined, scroll = true): boolean {
  if (!el) return false;
  if (!el.hasAttribute("tabindex")) el.tabIndex = -1;
  el.focus({ preventScroll: !scroll });
  return true;
}

/** The screen's title: the one h1 each screen has (PageHeader's, or sign-in's). */
export const screenHeading = () => document.querySelector<HTMLElement>("h1");

/** Focus to the screen's title, e.g. after a form on it closed. */
export const focusScreenHeading = () => moveFocusTo(screenHeading(), false);

/**
 * A ref whose element takes focus when it mounts: a result that replaced the control used, or a
 * message a screen opens with. Its element may come and go with a condition.
 */
export function useFocusOnMount<T extends HTMLElement>() {
  return useCallback((el: T | null) => {
    moveFocusTo(el);
  }, []);
}
