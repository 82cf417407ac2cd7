// Asking for a link to choose a new password: the email address, then "check your mail" in the
// same words whether or not an account uses the address (the gateway answers alike too).
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { Link, getRouteApi } from "@tanstack/react-router";
import { useMutation } from "@tanstack/react-query";
import { errorMessage, isStatus } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { AuthCard, AuthLead, EmailField } from "../../ui/AuthCard";
import { Notice } from "../../ui/states";

const route = getRouteApi("/forgot-password");

export function ForgotPassword() {
  const search = route.useSearch();
  const [email, setEmail] = useState(search.email ?? "");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ to: string; minutes: number } | null>(null);
  const sentHeading = useRef<HTMLHeadingElement>(null);

  // The "check your mail" state is a screen of its own: its title, and focus on its heading.
  useEffect(() => {
    document.title = sent ? "Check your mail · Catalog" : "Forgot your password · Catalog";
    if (sent) sentHeading.current?.focus();
  }, [sent]);

  const request = useMutation({
    mutationFn: endpoints.session.requestPasswordReset,
    onSuccess: (answer, body) => setSent({ to: body.email, minutes: answer.linkValidMinutes }),
    onError: (err) =>
      setError(
        isStatus(err, 429)
          ? "Too many links were asked for, from here or for this address. Wait a few minutes, then try again."
          : errorMessage(err),
      ),
  });

  function submit(e: SubmitEvent) {
    e.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) {
      setError("Enter the email address you sign in with");
      return;
    }
    setError(null);
    request.mutate({ email: address });
  }

  if (sent)
    return (
      <AuthCard>
        <div className="card-body stack">
          <div>
            <h1 ref={sentHeading} tabIndex={-1}>
              Check your mail
            </h1>
            <AuthLead>
              If an account uses <strong className="auth-address">{sent.to}</strong>, we sent it a
              link to choose a new password. The link works once, for {sent.minutes} minutes.
            </AuthLead>
          </div>
          <p className="muted" style={{ margin: 0 }}>
            No email after a few minutes? Look in your spam folder, check the address, or{" "}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                request.reset();
                setSent(null);
              }}
            >
              send another link
            </button>
            .
          </p>
          <Link to="/sign-in" search={{}} className="btn">
            Back to sign in
          </Link>
        </div>
      </AuthCard>
    );

  return (
    <AuthCard>
      <form className="card-body stack" onSubmit={submit} noValidate>
        <div>
          <h1>Forgot your password?</h1>
          <AuthLead>
            Enter the email address you sign in with and we will send you a link to choose a new
            password.
          </AuthLead>
        </div>
        {error ? (
          <Notice tone="bad">
            <p>{error}</p>
          </Notice>
        ) : null}
        <EmailField value={email} onChange={setEmail} />
        <button type="submit" className="btn btn-primary" disabled={request.isPending}>
          {request.isPending ? "Sending…" : "Send the link"}
        </button>
        <p className="auth-aside">
          <Link to="/sign-in" search={{}}>
            Back to sign in
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
