// A setting whose values the store's account lists (eBay's business policies, inventory
// locations, marketplaces): a select of them, or a text input when the account has none, the
// channel could not be asked, or the merchant prefers to type the id, each saying why.
import { useState } from "react";
import type { ChannelField, SettingsOptions } from "@catalog/gateway/api-types";
import { Field } from "../../ui/Field";
import { ChannelFieldLabel, SettingTextInput } from "./ChannelFieldInput";
import { channelRefusal, useSettingsOptions } from "./useSettingsOptions";

/** An option's text: its name, and what tells it apart. */
const optionText = (o: SettingsOptions["options"][number]) =>
  o.detail ? `${o.label} — ${o.detail}` : o.label;

export function ChoiceField({
  destinationId,
  channelName,
  field: f,
  value,
  error,
  onChange,
  marketplace,
}: {
  destinationId: string;
  channelName: string;
  field: ChannelField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  /** The marketplace the form has chosen (its value and its name), when the channel has them. */
  marketplace: { id: string; name: string } | null;
}) {
  const choices = useSettingsOptions(destinationId, f.name, {
    marketplaceId: f.name === "marketplaceId" ? "" : (marketplace?.id ?? ""),
  });
  const [typing, setTyping] = useState(false);
  const options = choices.data?.options ?? [];
  const what = f.label.toLowerCase();
  const where = marketplace && f.name !== "marketplaceId" ? ` for ${marketplace.name}` : "";

  // Why the field is typed in, when it is.
  const note = choices.isError
    ? `${channelRefusal(choices.error)}. You can type its id here.`
    : choices.isSuccess && options.length === 0
      ? `No ${what} in your ${channelName} account${where} yet: create one on ${channelName}, or type its id here.`
      : null;
  const asText = typing || note !== null;
  const known = options.some((o) => o.value === value);

  return (
    <Field
      label={<ChannelFieldLabel field={f} markRequired />}
      hint={
        <>
          {f.description}
          {note ? <span className="choice-note"> {note}</span> : null}
        </>
      }
      error={error}
    >
      {(p) => (
        <>
          {asText ? (
            <SettingTextInput {...p} field={f} value={value} onChange={onChange} />
          ) : (
            <select
              {...p}
              name={f.name}
              className="select"
              value={choices.isPending ? "" : value}
              disabled={choices.isPending}
              aria-busy={choices.isPending || undefined}
              aria-required={f.required || undefined}
              onChange={(e) => onChange(e.target.value)}
            >
              <option value="">
                {choices.isPending ? `Loading your ${what} choices…` : `Choose…`}
              </option>
              {value && !known && !choices.isPending ? (
                <option value={value}>{value} (not found in your account)</option>
              ) : null}
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {optionText(o)}
                </option>
              ))}
            </select>
          )}
          {note === null && choices.isSuccess && f.name !== "marketplaceId" ? (
            <button
              type="button"
              className="link-button small choice-toggle"
              onClick={() => setTyping(!typing)}
            >
              {typing ? "Choose from your account" : "Type the id instead"}
            </button>
          ) : null}
        </>
      )}
    </Field>
  );
}
