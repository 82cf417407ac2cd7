// The emailed link's page: choose the new password (twice), then every session ends and the user
// signs in again with it. A used, expired or unknown link says so and offers a new one.
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, isStatus, qk, sessionMemory } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { AuthCard, AuthLead, PasswordField } from "../../ui/AuthCard";
import { formatWhen } from "../../ui/format";
import { Notice } from "../../ui/states";

const route = getRouteApi("/reset-password");

/** The gateway's rule for every password. */
const MIN_PASSWORD_LENGTH = 10;

interface Errors {
  password?: string;
  confirmation?: string;
}

export function ResetPassword() {
  const { token } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  /** The link cannot be used (400 or 410): the form gives way to a new link. */
  const [refused, setRefused] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Asked before the password is typed: a used or expired link says so at once.
  const usable = useQuery({
    queryKey: qk.passwordReset(token ?? ""),
    queryFn: () => endpoints.session.checkPasswordReset({ token: token ?? "" }),
    enabled: Boolean(token),
    staleTime: Infinity,
  });
  const deadLink = !token
    ? "This link is incomplete: open the whole link from the email, or ask for a new one."
    : (refused ??
      (isStatus(usable.error, 400) || isStatus(usable.error, 410)
        ? errorMessage(usable.error)
        : null));
  const problem = useRef<HTMLDivElement>(null);

  useEffect(() => {
    document.title = "Choose a new password · Catalog";
  }, []);
  useEffect(() => {
    if (deadLink || failure) problem.current?.focus();
  }, [deadLink, failure]);

  const confirm = useMutation({
    mutationFn: endpoints.session.confirmPasswordReset,
    onSuccess: async () => {
      // Every session of the user ended, this tab's too: nothing cached of it may show.
      sessionMemory.signedOut();
      queryClient.clear();
      await navigate({ to: "/sign-in", search: { changed: 1 }, replace: true });
    },
    onError: (err) => {
      if (isStatus(err, 400) || isStatus(err, 410)) setRefused(errorMessage(err));
      else setFailure(errorMessage(err));
    },
  });

  function submit(e: SubmitEvent) {
    e.preventDefault();
    const next: Errors = {};
    if (password.length < MIN_PASSWORD_LENGTH)
      next.password = `Use at least ${MIN_PASSWORD_LENGTH} characters`;
    if (confirmation !== password) next.confirmation = "The two passwords are not the same";
    setErrors(next);
    setFailure(null);
    if (next.password || next.confirmation || !token) return;
    confirm.mutate({ token, password });
  }

  if (deadLink)
    return (
      <AuthCard>
        <div className="card-body stack">
          <h1>Choose a new password</h1>
          <Notice tone="bad" ref={problem} tabIndex={-1}>
            <p>{deadLink}</p>
          </Notice>
          <p className="muted" style={{ margin: 0 }}>
            A link works once and for a short while, and only the newest one you asked for works.
          </p>
          <Link to="/forgot-password" search={{}} className="btn btn-primary">
            Send me a new link
          </Link>
          <p className="auth-aside">
            <Link to="/sign-in" search={{}}>
              Back to sign in
            </Link>
          </p>
        </div>
      </AuthCard>
    );

  if (usable.isPending)
    return (
      <AuthCard>
        <div className="card-body stack">
          <h1>Choose a new password</h1>
          <p className="muted" role="status" style={{ margin: 0 }}>
            Checking your link…
          </p>
        </div>
      </AuthCard>
    );

  return (
    <AuthCard>
      <form className="card-body stack" onSubmit={submit} noValidate>
        <div>
          <h1>Choose a new password</h1>
          <AuthLead>
            {usable.data ? `This link works until ${formatWhen(usable.data.expiresAt)}. ` : null}
            After this you are signed out everywhere, and sign in with the new password.
          </AuthLead>
        </div>
        {usable.error && !deadLink ? (
          <div className="alert alert-warn" role="status">
            <p>
              Your link could not be checked ({errorMessage(usable.error)}). You can still try it.
            </p>
          </div>
        ) : null}
        {failure ? (
          <Notice tone="bad" ref={problem} tabIndex={-1}>
            <p>{failure}</p>
          </Notice>
        ) : null}
        <PasswordField
          label="New password"
          name="new-password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          error={errors.password}
          autoFocus
          value={password}
          onChange={setPassword}
        />
        <PasswordField
          label="New password again"
          name="confirm-password"
          autoComplete="new-password"
          error={errors.confirmation}
          value={confirmation}
          onChange={setConfirmation}
        />
        <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
          {confirm.isPending ? "Saving…" : "Save the new password"}
        </button>
      </form>
    </AuthCard>
  );
}
