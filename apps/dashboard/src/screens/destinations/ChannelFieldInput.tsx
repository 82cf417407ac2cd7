import type { ChannelField } from "@catalog/gateway/api-types";
import { Field, type FieldControlProps } from "../../ui/Field";
import { exampleHint } from "./fields";

/**
 * A channel field's label: its name, the asterisk a form explains (`markRequired`), and the word
 * "required" for screen readers either way.
 */
export function ChannelFieldLabel({
  field: f,
  markRequired = false,
}: {
  field: Pick<ChannelField, "label" | "required">;
  markRequired?: boolean;
}) {
  return (
    <>
      {f.label}
      {f.required ? (
        <>
          {markRequired ? (
            <span className="required-mark" aria-hidden="true">
              {" "}
              *
            </span>
          ) : null}
          <span className="visually-hidden"> (required)</span>
        </>
      ) : null}
    </>
  );
}

/**
 * One of a channel's fields (asked before connecting, or among a store's settings) as a labelled
 * input. `markRequired` shows
 * the asterisk a form explains; the word "required" is there for screen readers either way.
 */
export function ChannelFieldInput({
  field: f,
  value,
  error,
  onChange,
  markRequired = false,
}: {
  field: ChannelField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  markRequired?: boolean;
}) {
  return (
    <Field
      label={<ChannelFieldLabel field={f} markRequired={markRequired} />}
      hint={f.description || undefined}
      error={error}
    >
      {(p) => <SettingTextInput {...p} field={f} value={value} onChange={onChange} />}
    </Field>
  );
}

/**
 * The text box of a channel field, inside its Field: ids and addresses, so no spell check and no
 * capitals; its placeholder reads as an example.
 */
export function SettingTextInput({
  field: f,
  value,
  onChange,
  ...control
}: FieldControlProps & {
  field: Pick<ChannelField, "name" | "placeholder" | "required">;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      {...control}
      name={f.name}
      className="input"
      value={value}
      placeholder={exampleHint(f.placeholder)}
      aria-required={f.required || undefined}
      autoCapitalize="off"
      spellCheck={false}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
