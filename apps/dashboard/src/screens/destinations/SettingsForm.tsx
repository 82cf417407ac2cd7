// A store's channel settings (e.g. eBay's policies): only changed fields are sent; a 422 is
// split onto the fields it names, and focus goes to the first.
import { useRef, useState, type SubmitEvent } from "react";
import type { ChannelField, Destination } from "@catalog/gateway/api-types";
import { ApiError, errorMessage } from "../../api/client";
import { useChannelName } from "../../api/queries";
import { ChannelFieldInput } from "./ChannelFieldInput";
import { ChoiceField } from "./ChoiceField";
import { SearchChoiceField } from "./SearchChoiceField";
import {
  NO_ERRORS,
  changedSettings,
  fieldErrors,
  settingsValues,
  type FieldErrors,
} from "./fields";
import { useSettingsOptions } from "./useSettingsOptions";
import { useUpdateDestination } from "./useUpdateDestination";
import { Notice } from "../../ui/states";

/** The setting the choices of the others depend on (eBay's policies are per marketplace). */
const MARKETPLACE = "marketplaceId";

export function SettingsForm({
  destination: d,
  fields,
  onDone,
}: {
  destination: Destination;
  fields: ChannelField[];
  onDone: () => void;
}) {
  const channelName = useChannelName();
  const [initial] = useState(() => settingsValues(fields, d.settings));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const save = useUpdateDestination(d, () => `Saved the settings of “${d.name}”`, onDone);
  const topRef = useRef<HTMLDivElement>(null);
  const hasMarketplace = fields.some((f) => f.name === MARKETPLACE && f.choices);
  const marketplaceId = values[MARKETPLACE]?.trim() ?? "";
  const marketplaces = useSettingsOptions(d.id, MARKETPLACE, { enabled: hasMarketplace });
  // "Germany (ebay.de)" -> "Germany": how the notes name the form's marketplace.
  const marketplaceName =
    marketplaces.data?.options
      .find((o) => o.value === marketplaceId)
      ?.label.replace(/\s*\(.*\)$/, "") ?? marketplaceId;
  const marketplace =
    hasMarketplace && marketplaceId ? { id: marketplaceId, name: marketplaceName } : null;

  function submit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    setErrors(NO_ERRORS);
    save.mutate(
      { settings: changedSettings(fields, values, initial) },
      {
        onError: (err) => {
          const found =
            err instanceof ApiError && err.status === 422
              ? fieldErrors(err.message, fields)
              : { byField: {}, general: [errorMessage(err)] };
          setErrors(found);
          const first = fields.find((f) => found.byField[f.name]);
          const field = first ? form.elements.namedItem(first.name) : null;
          if (field instanceof HTMLElement) field.focus();
          else topRef.current?.focus();
        },
      },
    );
  }

  return (
    <form
      id={`settings-${d.id}`}
      className="dest-form stack"
      onSubmit={submit}
      noValidate
      aria-label={`${channelName(d.channel)} settings of ${d.name}`}
    >
      <div ref={topRef} tabIndex={-1}>
        {errors.general.length > 0 ? (
          <Notice tone="bad">
            <div>
              {errors.general.map((g) => (
                <p key={g}>{g}</p>
              ))}
            </div>
          </Notice>
        ) : Object.keys(errors.byField).length > 0 ? (
          <p className="error-text small" role="alert">
            Not saved: the store needs a few more settings, see the fields marked below.
          </p>
        ) : null}
      </div>
      <p className="small muted" style={{ margin: 0 }}>
        Fields marked{" "}
        <span className="required-mark" aria-hidden="true">
          *
        </span>
        <span className="visually-hidden">required</span> are required before publishing. Leave a
        field empty to remove it.
      </p>
      <div className="grid-2">
        {fields.map((f) => {
          const common = {
            field: f,
            value: values[f.name] ?? "",
            error: errors.byField[f.name],
            onChange: (value: string) => setValues((v) => ({ ...v, [f.name]: value })),
          };
          const asked = { destinationId: d.id, channelName: channelName(d.channel) };
          if (f.choices === "list")
            return <ChoiceField key={f.name} {...common} {...asked} marketplace={marketplace} />;
          if (f.choices === "search")
            return (
              <SearchChoiceField
                key={f.name}
                {...common}
                {...asked}
                marketplaceId={marketplace?.id ?? ""}
              />
            );
          return <ChannelFieldInput key={f.name} {...common} markRequired />;
        })}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save settings"}
        </button>
        <button type="button" className="btn" onClick={onDone} disabled={save.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
