import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreatedExtensionKey, ExtensionKey } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { Field } from "../../ui/Field";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/Toast";
import { formatDateTime, formatRelative } from "../../ui/format";

/** How a key begins (csk_<prefix>_<secret>): what its owner can compare with the key they pasted. */
const keyStart = (prefix: string) => `csk_${prefix}_…`;

export function ExtensionKeys() {
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const queryClient = useQueryClient();
  const toast = useToast();
  const keys = useQuery({ queryKey: qk.extensionKeys, queryFn: () => endpoints.extensionKeys.list() });
  const [created, setCreated] = useState<CreatedExtensionKey | null>(null);
  const [revoking, setRevoking] = useState<ExtensionKey | null>(null);

  useEffect(() => { document.title = "Extension keys · Catalog"; }, []);

  // Through the confirmation dialog, which shows a refusal.
  const revoke = useMutation({
    mutationFn: (key: ExtensionKey) => endpoints.extensionKeys.revoke(key.id),
    onSuccess: async (_result, key) => {
      await queryClient.invalidateQueries({ queryKey: qk.extensionKeys });
      if (created?.key.id === key.id) setCreated(null);
      toast.notify(`Revoked “${key.name}”`, "ok");
    },
  });

  const items = keys.data?.items ?? [];

  return (
    <div className="page">
      <PageHeader
        title="Extension keys"
        description="The browser extension sends the pages you capture to your catalog with one of these keys."
      />

      {isOwner ? (
        created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : <CreateKey onCreated={setCreated} />
      ) : (
        <Notice tone="info"><p>Only your organisation's owners can create or revoke keys. Ask one if you need a key for the extension.</p></Notice>
      )}

      <ErrorMessage error={keys.error} title="Could not load the keys" onRetry={() => void keys.refetch()} />
      {keys.isLoading ? <Loading label="Loading the keys" /> : keys.data && items.length === 0 ? (
        <Empty title="No keys yet">{isOwner ? "Create one above, then paste it into the extension's settings." : "None of your organisation's owners has created a key yet."}</Empty>
      ) : items.length > 0 ? (
        <div className="table-wrap responsive">
          <table className="table">
            <thead><tr><th>Name</th><th>Key starts with</th><th>Created</th><th>Last used</th><th>Status</th>{isOwner ? <th><span className="visually-hidden">Actions</span></th> : null}</tr></thead>
            <tbody>
              {items.map((k) => (
                <tr key={k.id}>
                  <td className="full"><span className="cell-title">{k.name}</span></td>
                  <td data-label="Key starts with"><code>{keyStart(k.prefix)}</code></td>
                  <td data-label="Created" className="nowrap" title={formatDateTime(k.createdAt)}>{formatDateTime(k.createdAt)}</td>
                  <td data-label="Last used" className="nowrap" title={formatDateTime(k.lastUsedAt)}>{k.lastUsedAt ? formatRelative(k.lastUsedAt) : "Never"}</td>
                  <td data-label="Status">
                    {k.revokedAt ? <StatusBadge status="revoked" label={`Revoked ${formatRelative(k.revokedAt)}`} /> : <StatusBadge status="active" label="Active" tone="ok" />}
                  </td>
                  {isOwner ? (
                    <td data-label="">
                      {k.revokedAt ? null : <button type="button" className="btn btn-sm" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>Revoke</button>}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        confirmLabel="Revoke key"
        danger
        onConfirm={() => (revoking ? revoke.mutateAsync(revoking) : undefined)}
        onClose={() => setRevoking(null)}
      >
        <p>The extension using the key that starts with <code>{revoking ? keyStart(revoking.prefix) : ""}</code> stops working at once: its captures are refused. This cannot be undone; create a new key to reconnect it.</p>
      </ConfirmDialog>
    </div>
  );
}

function CreateKey({ onCreated }: { onCreated: (created: CreatedExtensionKey) => void }) {
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

  function submit(e: FormEvent) {
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
          <Field label="Name" error={error} hint="What the key is for, e.g. “Ana's laptop”" className="grow">
            {(p) => <input {...p} className="input" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />}
          </Field>
        </div>
        <div><button type="submit" className="btn btn-primary" disabled={create.isPending}>{create.isPending ? "Creating…" : "Create key"}</button></div>
      </form>
    </section>
  );
}

function NewSecret({ created, onDone }: { created: CreatedExtensionKey; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const codeRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied("yes");
    } catch {
      // No clipboard permission (or not a secure context): select the text so Ctrl+C works.
      const range = document.createRange();
      if (codeRef.current) {
        range.selectNodeContents(codeRef.current);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
      }
      setCopied("no");
    }
  }

  return (
    <section className="card section" aria-labelledby="new-key-h" style={{ borderColor: "#b9e0cb" }}>
      <div className="card-body stack">
        <h2 id="new-key-h" ref={headingRef} tabIndex={-1}>Key “{created.key.name}” created</h2>
        <div className="alert alert-warn" style={{ margin: 0 }}>
          <p><strong>Copy it now: you will not see it again.</strong> Only a fingerprint of it is stored. Paste it into the extension's settings.</p>
        </div>
        <div className="secret-box">
          <code ref={codeRef} aria-label="The new key">{created.secret}</code>
          <button type="button" className="btn btn-primary" onClick={copy}>{copied === "yes" ? "Copied" : "Copy"}</button>
        </div>
        {copied === "no" ? <p className="small muted" role="status" style={{ margin: 0 }}>The browser did not allow copying: the key is selected, press Ctrl+C (⌘C).</p> : null}
        {copied === "yes" ? <p className="small muted" role="status" style={{ margin: 0 }}>Copied to the clipboard.</p> : null}
        <div><button type="button" className="btn" onClick={onDone}>I have saved it</button></div>
      </div>
    </section>
  );
}
