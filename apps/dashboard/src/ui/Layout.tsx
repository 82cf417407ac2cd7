import { useEffect, useState } from "react";
import { Link, Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as endpoints from "../api/endpoints";
import { errorMessage, sessionMemory, setSigningOut } from "../api/client";
import { ROLE_LABELS, useSession } from "../api/session";
import { useToast } from "./toast-context";

interface NavItem {
  to: string;
  label: string;
  adminOnly?: boolean;
  ownerOnly?: boolean;
}

/** The nav, in the order a merchant uses it; System only for the platform operator. */
const NAV: NavItem[] = [
  { to: "/products", label: "Catalog" },
  { to: "/imports", label: "Import" },
  { to: "/runs", label: "Publish runs" },
  { to: "/destinations", label: "Destinations" },
  { to: "/sync-logs", label: "Sync logs" },
  { to: "/legal", label: "Legal" },
  { to: "/keys", label: "Extension keys" },
  { to: "/api-tokens", label: "API tokens", ownerOnly: true },
  { to: "/webhooks", label: "Webhooks", ownerOnly: true },
  { to: "/system", label: "System", adminOnly: true },
];

export function Layout() {
  const session = useSession();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();

  // The small-screen menu is open on the page where it was opened: going somewhere closes it, and
  // so does Escape.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setMenuOpenOn(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  // The session cookie is gone once this succeeds: nothing cached may show to the next user.
  const signOut = useMutation({
    mutationFn: async () => {
      setSigningOut(true);
      await endpoints.session.signOut();
    },
    onError: (err) => {
      setSigningOut(false);
      toast.notify(`Sign out: ${errorMessage(err)}`, "bad");
    },
    onSuccess: async () => {
      sessionMemory.signedOut();
      await queryClient.cancelQueries();
      queryClient.clear();
      await navigate({ to: "/sign-in", search: {} });
      setSigningOut(false);
    },
  });

  const items = NAV.filter(
    (item) =>
      (!item.adminOnly || session.user.role === "admin") &&
      (!item.ownerOnly || session.user.role === "owner"),
  );
  const isActive = (to: string) =>
    pathname === to || pathname.startsWith(`${to}/`) || (to === "/runs" && pathname === "/publish");

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="btn btn-ghost menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="sidenav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">☰</span> Menu
        </button>
        <Link to="/products" className="brand" search={{}}>
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Catalog ·</span>
          <span className="brand-org" title="Organisation">
            {session.org.name}
          </span>
        </Link>
        <span className="topbar-spacer" />
        <span className="whoami">
          <span className="whoami-email" title={session.user.email}>
            {session.user.email}
          </span>
          <span className="badge badge-plain badge-muted role-label">
            {ROLE_LABELS[session.user.role]}
          </span>
        </span>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => signOut.mutate()}
          disabled={signOut.isPending || signOut.isSuccess}
        >
          {signOut.isPending || signOut.isSuccess ? "Signing out…" : "Sign out"}
        </button>
      </header>
      <div className="shell">
        <nav id="sidenav" className={`sidenav${menuOpen ? " open" : ""}`} aria-label="Main">
          <div className="nav-user">
            <strong>{session.user.email}</strong>
            <span>
              {ROLE_LABELS[session.user.role]} · {session.org.name}
            </span>
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
