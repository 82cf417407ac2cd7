// The "Browser extension" tab: how the extension imports the page the user is looking at.
import { Link } from "@tanstack/react-router";

export function ExtensionNote() {
  return (
    <div className="card-body stack extension-note">
      <p>
        The Catalog browser extension imports the product page you are looking at, in any shop, with
        a preview first, as here.
      </p>
      <ol className="steps">
        <li>
          Add the extension to Chrome (or another Chromium browser, or Firefox): whoever runs this
          service has it (in the service's code, <code>apps/extension</code>).
        </li>
        <li>
          Pair it once: click its button, enter this service's address,{" "}
          <code>{window.location.origin}</code>, and an extension key (an owner of your organisation
          creates one in <Link to="/keys">Extension keys</Link>).
        </li>
        <li>
          On a product page, click the button: it shows what it read (title, price, SKU,
          availability, brand, images, variants) and what saving would change; correct anything,
          then save. On a category or search page, choose products from its list.
        </li>
      </ol>
      <p className="muted small">
        Saved products appear at the top of the{" "}
        <Link to="/products" search={{}}>
          catalog
        </Link>
        ; the products chosen on a category page are an import of their own, in{" "}
        <strong>Recent imports</strong> below.
      </p>
    </div>
  );
}
