// Owners create a key: a name, then the secret shown once.
import type { CreatedExtensionKey } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { CreateCredential } from "../../ui/CreateCredential";

export function CreateKey({ onCreated }: { onCreated: (created: CreatedExtensionKey) => void }) {
  return (
    <CreateCredential
      noun="key"
      nameHint="What the key is for, e.g. “Ana's laptop”"
      nameMissing="Give the key a name, e.g. the laptop or the person it is for"
      create={(name) => endpoints.extensionKeys.create(name)}
      queryKey={qk.extensionKeys}
      onCreated={onCreated}
    />
  );
}
