import { useEffect, useState, type SubmitEvent } from "react";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, qk, safeNext, sessionMemory } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { Field } from "../../ui/Field";

const route = getRouteApi("/sign-in");

export function SignIn() {
  const { next } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [ended] = useState(() => sessionMemory.takeEndedMessage());

  useEffect(() => {
    document.title = "Sign in · Catalog";
  }, []);
  // Already signed in in this tab (the session is cached): straight on to where they were going.
  useEffect(() => {
    if (queryClient.getQueryData(qk.session))
      void navigate({ href: safeNext(next), replace: true });
  }, [queryClient, navigate, next]);

  // Pending until the next screen is open, so the button keeps saying what is happening.
  const signIn = useMutation({
    mutationFn: endpoints.session.signIn,
    onSuccess: async (session) => {
      sessionMemory.signedIn();
      queryClient.clear();
      queryClient.setQueryData(qk.session, session);
      await navigate({ href: safeNext(next), replace: true });
    },
    onError: (err) => setError(errorMessage(err)),
  });

  function submit(e: SubmitEvent) {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError("Enter your email and password");
      return;
    }
    setError(null);
    signIn.mutate({ email: email.trim(), password });
  }

  return (
    <div className="auth-page">
      <main className="auth-card">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>Catalog</span>
        </div>
        <div className="card">
          <form className="card-body stack" onSubmit={submit} noValidate>
            <div>
              <h1>Sign in</h1>
              <p className="muted" style={{ marginTop: 4, marginBottom: 0 }}>
                Import, publish and keep your product catalog in sync.
              </p>
            </div>
            {ended && !error ? (
              <div className="alert alert-warn" role="status">
                <p>{ended}</p>
              </div>
            ) : null}
            {error ? (
              <div className="alert alert-bad" role="alert">
                <p>{error}</p>
              </div>
            ) : null}
            <Field label="Email">
              {(p) => (
                <input
                  {...p}
                  className="input"
                  type="email"
                  name="email"
                  autoComplete="username"
                  autoFocus
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  required
                />
              )}
            </Field>
            <Field label="Password">
              {(p) => (
                <input
                  {...p}
                  className="input"
                  type="password"
                  name="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  required
                />
              )}
            </Field>
            <button type="submit" className="btn btn-primary" disabled={signIn.isPending}>
              {signIn.isPending ? "Signing in…" : "Sign in"}
            </button>
          </form>
        </div>
      </main>
    </div>
  );
}
