// Helpers for the channels' environment schemas (the config package reads and checks them).
import { Type } from "typebox";

/** A variable with a default that may not be empty. */
export const envText = (defaultValue: string, description?: string) =>
  Type.String({ default: defaultValue, minLength: 1, ...(description ? { description } : {}) });

/** A variable that may be left empty (an unset client id leaves its channel unconfigured). */
export const envOptional = (description?: string) =>
  Type.String({ default: "", ...(description ? { description } : {}) });

export const trimSlash = (url: string) => url.trim().replace(/\/+$/, "");

/** The names of the variables among `names` that are empty, for a 503 saying what to set. */
export const unset = (values: Record<string, string>) =>
  Object.entries(values)
    .filter(([, v]) => !v)
    .map(([name]) => name);
