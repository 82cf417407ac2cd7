// Owners create a token: a name, its scopes and how long it lives; the secret is shown next.
import { useState } from "react";
import type { CreatedApiToken } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { CreateCredential } from "../../ui/CreateCredential";
import { Field } from "../../ui/Field";
import { LIFETIMES, SCOPES, type Scope } from "./scopes";

const DAY_MS = 24 * 3600 * 1000;

export function CreateToken({ onCreated }: { onCreated: (created: CreatedApiToken) => void }) {
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [lifetime, setLifetime] = useState("90");

  const toggle = (scope: Scope, on: boolean) =>
    setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));

  return (
    <CreateCredential
      noun="token"
      nameHint="What the token is for, e.g. “ERP nightly sync”"
      nameMissing="Give the token a name, e.g. the system that will use it"
      check={() => (scopes.length === 0 ? "Choose at least one thing the token may do" : null)}
      create={(name) => {
        const days = lifetime === "never" ? null : Number(lifetime);
        return endpoints.apiTokens.create({
          name,
          scopes: SCOPES.map((s) => s.scope).filter((s) => scopes.includes(s)),
          expiresAt: days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString(),
        });
      }}
      queryKey={qk.apiTokens}
      onCreated={(created) => {
        setScopes([]);
        onCreated(created);
      }}
    >
      <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="label">What it may do</legend>
        {SCOPES.map(({ scope, label, opens }) => (
          <label key={scope} className="check-row">
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
    </CreateCredential>
  );
}
