// A setting found by words (eBay's category): what the merchant types is searched in the store's
// channel, the suggestions are radio buttons, and the chosen id lands in the setting's own input,
// which can also be typed in (when nothing fits, or the channel cannot be asked).
import { useEffect, useId, useState } from "react";
import type { ChannelField } from "@catalog/gateway/api-types";
import { Field } from "../../ui/Field";
import { ChannelFieldLabel, SettingTextInput } from "./ChannelFieldInput";
import { channelRefusal, useSettingsOptions } from "./useSettingsOptions";

/** Words shorter than this find too much (the gateway refuses them). */
const MIN_WORDS = 2;
/** Typing pauses this long before the channel is asked. */
const TYPING_PAUSE_MS = 300;

/** "Category" -> "categories": the field's label as what a search finds. */
const plural = (label: string) => {
  const word = label.toLowerCase();
  return word.endsWith("y") ? `${word.slice(0, -1)}ies` : `${word}s`;
};

export function SearchChoiceField({
  destinationId,
  channelName,
  field: f,
  value,
  error,
  onChange,
  marketplaceId,
}: {
  destinationId: string;
  channelName: string;
  field: ChannelField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  marketplaceId: string;
}) {
  const [words, setWords] = useState("");
  const [searched, setSearched] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setSearched(words.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [words]);
  const ready = searched.length >= MIN_WORDS;
  const found = useSettingsOptions(destinationId, f.name, {
    q: searched,
    marketplaceId,
    enabled: ready,
  });
  const options = ready ? (found.data?.options ?? []) : [];
  const [chosenName, setChosenName] = useState<string | null>(null);
  const legendId = useId();
  const things = plural(f.label);

  const status = !ready
    ? null
    : found.isPending
      ? "Searching…"
      : found.isError
        ? `${channelRefusal(found.error)}. You can type the id below.`
        : options.length === 0
          ? `No ${channelName} ${f.label.toLowerCase()} matches “${searched}”: try other words, or type the id below.`
          : `${options.length} ${options.length === 1 ? f.label.toLowerCase() : things} found.`;

  return (
    <fieldset className="choice-search" aria-labelledby={legendId}>
      <legend id={legendId} className="field-label">
        <ChannelFieldLabel field={f} markRequired />
      </legend>
      <Field label={`Search ${channelName} ${things}`} hint={f.description || undefined}>
        {(p) => (
          <input
            {...p}
            type="search"
            className="input"
            value={words}
            placeholder="e.g. running shoes"
            onChange={(e) => setWords(e.target.value)}
            onKeyDown={(e) => {
              // Enter searches at once rather than saving the whole form.
              if (e.key === "Enter") {
                e.preventDefault();
                setSearched(words.trim());
              }
            }}
          />
        )}
      </Field>
      <p className="small muted choice-status" role="status">
        {status}
      </p>
      {options.length > 0 ? (
        <div role="group" aria-label={`Suggested ${things}`} className="choice-results">
          {options.map((o) => (
            <label key={o.value} className="choice-result">
              <input
                type="radio"
                name={`${f.name}-suggestion`}
                value={o.value}
                checked={o.value === value}
                onChange={() => {
                  onChange(o.value);
                  setChosenName(o.detail ? `${o.label} (${o.detail})` : o.label);
                }}
              />
              <span>
                <span className="choice-result-name">{o.label}</span>
                {o.detail ? <span className="small muted"> {o.detail}</span> : null}
                <span className="small muted mono"> · {o.value}</span>
              </span>
            </label>
          ))}
        </div>
      ) : null}
      <Field
        label={`${f.label} id`}
        hint={
          chosenName && value
            ? `Chosen: ${chosenName}`
            : "Filled in when you choose above, or type it yourself."
        }
        error={error}
      >
        {(p) => (
          <SettingTextInput
            {...p}
            field={f}
            value={value}
            onChange={(typed) => {
              onChange(typed);
              setChosenName(null);
            }}
          />
        )}
      </Field>
    </fieldset>
  );
}
