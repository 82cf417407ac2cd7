// Owners create a token: a name, its scopes and how long it lives; the secret is shown next.
import { useState, type SubmitEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedApiToken } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { Field } from "../../ui/Field";
import { LIFETIMES, SCOPES, type Scope } from "./scopes";

const DAY_MS = 24 * 3600 * 1000;

export function CreateToken({ onCreated }: { onCreated: (created: CreatedApiToken) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [lifetime, setLifetime] = useState("90");
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: endpoints.apiTokens.create,
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: qk.apiTokens });
      setName("");
      setScopes([]);
      onCreated(created);
    },
    onError: (err) => setError(errorMessage(err)),
  });

  const toggle = (scope: Scope, on: boolean) =>
    setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));

  function submit(e: SubmitEvent) {
    e.preventDefault();
    if (!name.trim()) return setError("Give the token a name, e.g. the system that will use it");
    if (scopes.length === 0) return setError("Choose at least one thing the token may do");
    setError(null);
    const days = lifetime === "never" ? null : Number(lifetime);
    create.mutate({
      name: name.trim(),
      scopes: SCOPES.map((s) => s.scope).filter((s) => scopes.includes(s)),
      expiresAt: days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString(),
    });
  }

  return (
    <section className="card section" aria-labelledby="create-token-h">
      <form className="card-body stack" onSubmit={submit} noValidate>
        <h2 id="create-token-h">Create a token</h2>
        <Field label="Name" error={error} hint="What the token is for, e.g. “ERP nightly sync”">
          {(p) => (
            <input
              {...p}
              className="input"
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="label">What it may do</legend>
          {SCOPES.map(({ scope, label, opens }) => (
            <label key={scope} className="row" style={{ gap: 8, alignItems: "flex-start" }}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
              <span>
                {label} <code className="small muted">{scope}</code>
                <br />
                <span className="small muted">{opens}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field label="Expires" hint="A token stops working when it expires or is revoked">
          {(p) => (
            <select
              {...p}
              className="input"
              value={lifetime}
              onChange={(e) => setLifetime(e.target.value)}
            >
              {LIFETIMES.map(({ days, label }) => (
                <option key={label} value={days === null ? "never" : String(days)}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </button>
        </div>
      </form>
    </section>
  );
}
