// The toast context and its hook, apart from <ToastProvider> (Toast.tsx) so that file exports
// components only (React fast refresh).
import { createContext, useContext } from "react";

export type ToastTone = "info" | "ok" | "bad";
/** An in-app link shown in the notice, e.g. { label: "Follow the run", href: "/runs/123" }. */
export interface ToastAction {
  label: string;
  href: string;
}
export interface ToastApi {
  notify: (text: string, tone?: ToastTone, action?: ToastAction) => void;
}

export const ToastContext = createContext<ToastApi>({ notify: () => undefined });

export function useToast(): ToastApi {
  return useContext(ToastContext);
}
