// Owners create a key: a name, then the secret shown once.
import { useState, type SubmitEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedExtensionKey } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { Field } from "../../ui/Field";

export function CreateKey({ onCreated }: { onCreated: (created: CreatedExtensionKey) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (keyName: string) => endpoints.extensionKeys.create(keyName),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: qk.extensionKeys });
      setName("");
      onCreated(created);
    },
    onError: (err) => setError(errorMessage(err)),
  });

  function submit(e: SubmitEvent) {
    e.preventDefault();
    if (!name.trim()) {
      setError("Give the key a name, e.g. the laptop or the person it is for");
      return;
    }
    setError(null);
    create.mutate(name.trim());
  }

  return (
    <section className="card section" aria-labelledby="create-key-h">
      <form className="card-body stack" onSubmit={submit} noValidate>
        <h2 id="create-key-h">Create a key</h2>
        <div className="row" style={{ alignItems: "flex-start" }}>
          <Field
            label="Name"
            error={error}
            hint="What the key is for, e.g. “Ana's laptop”"
            className="grow"
          >
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
        </div>
        <div>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </button>
        </div>
      </form>
    </section>
  );
}
