import { useEffect, useState, type SubmitEvent } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, qk, safeNext, sessionMemory } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { AuthCard, AuthLead, EmailField, PasswordField } from "../../ui/AuthCard";
import { Notice } from "../../ui/states";

/** What the sign-in screen says after a password was changed with an emailed link. */
export const PASSWORD_CHANGED_MESSAGE =
  "Your password was changed and you were signed out everywhere. Sign in with your new password.";

const route = getRouteApi("/sign-in");

export function SignIn() {
  const { next, changed } = route.useSearch();
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
    <AuthCard>
      <form className="card-body stack" onSubmit={submit} noValidate>
        <div>
          <h1>Sign in</h1>
          <AuthLead>Import, publish and keep your product catalog in sync.</AuthLead>
        </div>
        {changed && !error ? (
          <div className="alert alert-ok" role="status">
            <p>{PASSWORD_CHANGED_MESSAGE}</p>
          </div>
        ) : null}
        {ended && !error && !changed ? (
          <div className="alert alert-warn" role="status">
            <p>{ended}</p>
          </div>
        ) : null}
        {error ? (
          <Notice tone="bad">
            <p>{error}</p>
          </Notice>
        ) : null}
        <EmailField value={email} onChange={setEmail} />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <button type="submit" className="btn btn-primary" disabled={signIn.isPending}>
          {signIn.isPending ? "Signing in…" : "Sign in"}
        </button>
        <p className="auth-aside">
          <Link to="/forgot-password" search={email.trim() ? { email: email.trim() } : {}}>
            Forgot your password?
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
