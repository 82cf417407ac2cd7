// The form that creates a credential (an extension key, an API token): its name, the kind's own
// fields, and Create; the secret is shown next (NewSecret).
import { useState, type ReactNode, type SubmitEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../api/client";
import { Field } from "./Field";

export function CreateCredential<Created>({
  noun,
  nameHint,
  nameMissing,
  check,
  create,
  queryKey,
  onCreated,
  children,
}: {
  /** "key", "token": in "Create a key" and "Create key". */
  noun: string;
  nameHint: string;
  /** What to say when the name is left empty. */
  nameMissing: string;
  /** What is wrong with the kind's own fields, if anything. */
  check?: () => string | null;
  create: (name: string) => Promise<Created>;
  /** The list's query key, refreshed once one is created. */
  queryKey: readonly unknown[];
  onCreated: (created: Created) => void;
  /** The kind's own fields, after the name. */
  children?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const created = useMutation({
    mutationFn: create,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey });
      setName("");
      onCreated(result);
    },
    onError: (err) => setError(errorMessage(err)),
  });

  function submit(e: SubmitEvent) {
    e.preventDefault();
    const problem = !name.trim() ? nameMissing : (check?.() ?? null);
    setError(problem);
    if (!problem) created.mutate(name.trim());
  }

  const headingId = `create-${noun}-h`;
  return (
    <section className="card section" aria-labelledby={headingId}>
      <form className="card-body stack" onSubmit={submit} noValidate>
        <h2 id={headingId}>Create a {noun}</h2>
        <Field label="Name" error={error} hint={nameHint}>
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
        {children}
        <div>
          <button type="submit" className="btn btn-primary" disabled={created.isPending}>
            {created.isPending ? "Creating…" : `Create ${noun}`}
          </button>
        </div>
      </form>
    </section>
  );
}
