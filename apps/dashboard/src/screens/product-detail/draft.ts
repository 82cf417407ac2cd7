// The product edit form's draft, kept when a save finds the session ended (401): in this tab's
// sessionStorage, keyed by user and product, holding the form as typed and the product as the form
// opened it (its version makes the resubmission a stale edit, 409, if the product changed since).
// Signing in again brings the person back to the product, where the form resubmits the draft.
// Product fields only: no secrets are ever in it. Signing out removes every draft (DRAFT_PREFIX).
import type { ProductDetail } from "@catalog/gateway/api-types";
import { DRAFT_PREFIX } from "../../api/client";
import type { FormState } from "./edit-form";

export interface ProductDraft {
  form: FormState;
  base: ProductDetail;
}

const keyOf = (userId: string, productId: string) =>
  `${DRAFT_PREFIX}product.${userId}.${productId}`;

export function keepDraft(userId: string, draft: ProductDraft): void {
  try {
    sessionStorage.setItem(keyOf(userId, draft.base.id), JSON.stringify(draft));
  } catch {
    // Storage full or off: the draft is lost as it was before; the save's error still shows.
  }
}

export function readDraft(userId: string, productId: string): ProductDraft | null {
  const text = sessionStorage.getItem(keyOf(userId, productId));
  if (!text) return null;
  try {
    const draft = JSON.parse(text) as ProductDraft;
    return draft.base?.id === productId && draft.form ? draft : null;
  } catch {
    return null;
  }
}

export function dropDraft(userId: string, productId: string): void {
  sessionStorage.removeItem(keyOf(userId, productId));
}
