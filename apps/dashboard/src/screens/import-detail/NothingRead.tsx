// A page import where no page gave a product: its own state instead of an empty "Preview ready".
import { Link } from "@tanstack/react-router";
import { Notice } from "../../ui/states";

export function NothingRead({ pages }: { pages: number }) {
  return (
    <Notice tone="bad">
      <p>
        <strong>Nothing could be read.</strong>{" "}
        {pages === 1
          ? "The page gave no product: the reason is below its address."
          : `None of the ${pages.toLocaleString()} pages gave a product: the reason is below each address.`}{" "}
        Nothing was stored.
      </p>
      <Link to="/imports" search={{}} className="btn btn-sm">
        Try other addresses
      </Link>
    </Notice>
  );
}
