// A page import where no page gave a product: its own state instead of an empty "Preview ready".
import { Link } from "@tanstack/react-router";

export function NothingRead({ pages }: { pages: number }) {
  return (
    <div className="alert alert-bad" role="alert">
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
    </div>
  );
}
