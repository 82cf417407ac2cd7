/**
 * A field a merchant fills in for a channel: asked before connecting (a query parameter of
 * the connect request) or among the destination's settings. Each channel lists its own, beside
 * the code that reads them, so a form can be drawn without knowing the channel.
 */
export interface ChannelField {
  /** The query parameter (connect) or settings key. */
  name: string;
  label: string;
  required: boolean;
  description: string;
  placeholder: string | null;
}

export const field = (name: string, label: string, description: string, options: { required?: boolean; placeholder?: string } = {}): ChannelField => ({
  name, label, description, required: options.required ?? true, placeholder: options.placeholder ?? null,
});
