// Money values as the API sends them ({ amount: "19.99", currency: "USD" }), shown as text.

export function isMoney(v: unknown): v is { amount: string; currency: string } {
  return typeof v === "object" && v !== null && "amount" in v && "currency" in v;
}

export function moneyText(v: { amount: unknown; currency: unknown }): string {
  return `${String(v.amount)} ${String(v.currency)}`;
}
