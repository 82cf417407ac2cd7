// Owners add an endpoint: URL, events, description; the answer's secret is shown next.
import { useState, type SubmitEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedWebhook } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { Field } from "../../ui/Field";
import { WEBHOOK_EVENTS } from "./events";

export function AddEndpoint({ onCreated }: { onCreated: (created: CreatedWebhook) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      endpoints.webhooks.create({
        url: url.trim(),
        events,
        ...(description.trim() ? { description: description.trim() } : {}),
      }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: qk.webhooks.all });
      setUrl("");
      setDescription("");
      setEvents([]);
      onCreated(created);
    },
    onError: (err) => setError(errorMessage(err)),
  });

  function submit(e: SubmitEvent) {
    e.preventDefault();
    if (!url.trim()) return setError("Give the address that should receive the events");
    if (events.length === 0) return setError("Choose at least one event");
    setError(null);
    create.mutate();
  }

  const toggle = (type: string, on: boolean) =>
    setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)));

  return (
    <section className="card section" aria-labelledby="add-webhook-h">
      <form className="card-body stack" onSubmit={submit} noValidate>
        <h2 id="add-webhook-h">Add an endpoint</h2>
        <Field
          label="Endpoint URL"
          error={error}
          hint="A public https address of your system; events are POSTed to it, signed (Standard Webhooks)"
        >
          {(p) => (
            <input
              {...p}
              className="input"
              type="url"
              value={url}
              maxLength={2048}
              placeholder="https://example.com/webhooks/catalog"
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="label">Events</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event.type} className="row" style={{ gap: 8 }}>
              <input
                type="checkbox"
                checked={events.includes(event.type)}
                onChange={(e) => toggle(event.type, e.target.checked)}
              />
              <span>
                {event.label} <code className="small muted">{event.type}</code>
              </span>
            </label>
          ))}
        </fieldset>
        <Field
          label="Description (optional)"
          hint="What the endpoint is for, e.g. “ERP stock sync”"
        >
          {(p) => (
            <input
              {...p}
              className="input"
              value={description}
              maxLength={500}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <div>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add endpoint"}
          </button>
        </div>
      </form>
    </section>
  );
}
