import { Link } from "@tanstack/react-router";
import { countOf } from "../../ui/format";

/**
 * Prices the file gave without a currency are left out; the way to keep them is to import the file
 * again with one.
 */
export function NoCurrencyNotice({ count, stored }: { count: number; stored: boolean }) {
  const rows = countOf(count, "row");
  return (
    <div className="alert alert-warn no-currency" role="status">
      <p>
        <strong>
          {rows} {count === 1 ? "gives a price" : "give prices"} without a currency
        </strong>
        , so {count === 1 ? "that product " : "those products "}
        {stored ? (count === 1 ? "was stored" : "were stored") : "will be stored"} without a price.
        Shopify's and WooCommerce's exports never say their currency: import the file again and
        choose your store's.
      </p>
      <Link to="/imports" search={{ tab: "file" }} className="btn btn-sm">
        Import the file again with a currency
      </Link>
    </div>
  );
}
