// The pairing lives in the extension's local storage (this browser profile only; never synced).
import type { Pairing } from "../shared/protocol";

const KEY = "pairing";

export async function readPairing(): Promise<Pairing | null> {
  const stored = (await chrome.storage.local.get(KEY))[KEY] as Pairing | undefined;
  return stored ?? null;
}

export async function savePairing(pairing: Pairing): Promise<void> {
  await chrome.storage.local.set({ [KEY]: pairing });
}

export async function forgetPairing(): Promise<void> {
  await chrome.storage.local.remove(KEY);
}
