import { useEffect, useState } from "react";
import { Link, Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import * as endpoints from "../api/endpoints";
import { errorMessage, sessionMemory, setSigningOut } from "../api/client";
import { ROLE_LABELS, useLegalStatus, useSession } from "../api/session";
import { useToast } from "./Toast";

interface NavItem { to: string; label: string; adminOnly?: boolean }

/** The nav, in the order a merchant uses it; System only for the platform operator. */
export const NAV: NavItem[] = [
  { to: "/products", label: "Catalog" },
  { to: "/imports", label: "Import" },
  { to: "/runs", label: "Publish runs" },
  { to: "/destinations", label: "Destinations" },
  { to: "/sync-logs", label: "Sync logs" },
  { to: "/legal", label: "Legal" },
  { to: "/keys", label: "Extension keys" },
  { to: "/system", label: "System", adminOnly: true },
];

export function Layout() {
  const session = useSession();
  const legal = useLegalStatus();
  const [menuOpen, setMenuOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [signingOut, setSigningOutState] = useState(false);

  // Close the small-screen menu whenever the user goes somewhere, or presses Escape.
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => { if (e.key === "Escape") setMenuOpen(false); };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  async function signOut() {
    setSigningOutState(true);
    setSigningOut(true);
    try {
      await endpoints.session.signOut();
    } catch (err) {
      toast.notify(`Sign out: ${errorMessage(err)}`, "bad");
      setSigningOutState(false);
      setSigningOut(false);
      return;
    }
    sessionMemory.signedOut();
    await queryClient.cancelQueries();
    queryClient.clear();
    await navigate({ to: "/sign-in", search: {} });
    setSigningOut(false);
  }

  const items = NAV.filter((item) => !item.adminOnly || session.user.role === "admin");
  const isActive = (to: string) => pathname === to || pathname.startsWith(`${to}/`) || (to === "/runs" && pathname === "/publish");

  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <button
          type="button"
          className="btn btn-ghost menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="sidenav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          <span aria-hidden="true">☰</span> Menu
        </button>
        <Link to="/products" className="brand" search={{}}>
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Catalog ·</span>
          <span className="brand-org" title="Organisation">{session.org.name}</span>
        </Link>
        <span className="topbar-spacer" />
        <span className="whoami">
          <span className="whoami-email" title={session.user.email}>{session.user.email}</span>
          <span className="badge badge-plain badge-muted role-label">{ROLE_LABELS[session.user.role]}</span>
        </span>
        <button type="button" className="btn btn-sm" onClick={() => void signOut()} disabled={signingOut}>
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      </header>
      {legal.data && !legal.data.allSigned ? (
        <div className="banner" role="status">
          <span>Legal documents are not all signed.</span>
          <Link to="/legal">Review and sign them</Link>
        </div>
      ) : null}
      <div className="shell">
        <nav id="sidenav" className={`sidenav${menuOpen ? " open" : ""}`} aria-label="Main">
          <div className="nav-user">
            <strong>{session.user.email}</strong>
            <span>{ROLE_LABELS[session.user.role]} · {session.org.name}</span>
          </div>
          <ul>
            {items.map((item) => (
              <li key={item.to}>
                {item.adminOnly ? <div className="nav-sep" role="presentation" /> : null}
                <a
                  href={item.to}
                  aria-current={isActive(item.to) ? "page" : undefined}
                  onClick={(e) => {
                    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                    e.preventDefault();
                    void navigate({ to: item.to });
                  }}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </>
  );
}
