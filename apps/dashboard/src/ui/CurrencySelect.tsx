import type { FieldControlProps } from "./Field";
import { CURRENCIES } from "../screens/imports/file-check";

/**
 * The one currency control (the import form's and the product form's): a list of the common ISO
 * codes, with `none` as its empty choice. A code the list lacks (a product's own) is offered too.
 */
export function CurrencySelect({
  value,
  onChange,
  none,
  ...field
}: FieldControlProps & { value: string; onChange: (code: string) => void; none: string }) {
  const codes = value && !CURRENCIES.includes(value) ? [value, ...CURRENCIES] : CURRENCIES;
  return (
    <select {...field} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{none}</option>
      {codes.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  );
}
