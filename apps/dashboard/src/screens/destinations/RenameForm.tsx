import { useState, type SubmitEvent } from "react";
import type { Destination } from "@catalog/gateway/api-types";
import { errorMessage } from "../../api/client";
import { Field } from "../../ui/Field";
import { useUpdateDestination } from "./useUpdateDestination";

/** A store's name in the dashboard; an unchanged name just closes the form. */
export function RenameForm({
  destination: d,
  onDone,
}: {
  destination: Destination;
  onDone: () => void;
}) {
  const [name, setName] = useState(d.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useUpdateDestination(d, (patch) => `Renamed to “${patch.name ?? ""}”`, onDone);

  function submit(e: SubmitEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError("Give the store a name");
    if (trimmed === d.name) return onDone();
    setError(null);
    rename.mutate({ name: trimmed }, { onError: (err) => setError(errorMessage(err)) });
  }

  return (
    <form className="dest-form rename-form" onSubmit={submit} noValidate>
      <Field
        label="Name"
        error={error}
        hint="How this store is called in the dashboard"
        className="grow"
      >
        {(p) => (
          <input
            {...p}
            className="input"
            value={name}
            maxLength={200}
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={rename.isPending}>
          {rename.isPending ? "Saving…" : "Save name"}
        </button>
        <button type="button" className="btn" onClick={onDone} disabled={rename.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
