// /destinations — the stores the catalog is published to: health, breaker, a channel's wait,
// queue counts; connect a store (a full page load to the channel, which brings the user back
// here with ?connected= or ?connectError=); per destination the channel's settings, rename and
// disconnect. Only owners change anything; members see the list.
import { useEffect, useState } from "react";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Destination } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import { useChannels } from "../../api/channels";
import * as endpoints from "../../api/endpoints";
import { useChannelName, useDestinations } from "../../api/queries";
import { useSession } from "../../api/session";
import { useNow } from "../../ui/clock";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { missingSettings, needsClock } from "../../ui/destination-state";
import { PageHeader } from "../../ui/PageHeader";
import { useFocusOnMount } from "../../ui/focus";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { ConnectSection } from "./ConnectSection";
import { DestinationCard } from "./DestinationCard";
import { queuedDropText } from "./labels";

const route = getRouteApi("/app/destinations");

interface ConnectNotice {
  tone: "ok" | "bad";
  text: string;
  destinationId?: string;
  /** A refusal for this channel shows in its connect form rather than at the top. */
  channel?: string;
}

export function Destinations() {
  const channelName = useChannelName();
  const search = route.useSearch();
  const navigate = useNavigate({ from: "/destinations" });
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const destinations = useDestinations({ refetchInterval: 10_000 });
  const channels = useChannels();
  const queryClient = useQueryClient();
  const [disconnecting, setDisconnecting] = useState<Destination | null>(null);
  const disconnect = useDisconnect();

  // The connect callback's answer arrives in the URL: keep it as a notice, then clean the URL.
  const [notice, setNotice] = useState<ConnectNotice | null>(() => {
    if (search.connectError)
      return { tone: "bad", text: search.connectError, channel: search.channel };
    if (search.connected)
      return { tone: "ok", text: search.connected, destinationId: search.destination };
    return null;
  });
  useEffect(() => {
    if (search.connectError || search.connected || search.destination || search.channel) {
      if (search.connected) void queryClient.invalidateQueries({ queryKey: qk.destinations });
      void navigate({ search: {}, replace: true });
    }
  }, [
    search.connectError,
    search.connected,
    search.destination,
    search.channel,
    navigate,
    queryClient,
  ]);

  // Back from a store's consent page: its answer is where the user's focus starts.
  const noticeRef = useFocusOnMount<HTMLDivElement>();
  useEffect(() => {
    document.title = "Destinations · Catalog";
  }, []);

  const items = destinations.data?.items ?? [];
  const now = useNow(needsClock(items));
  // A refusal for a channel the owner can connect is said in that channel's form.
  const refused =
    isOwner &&
    notice?.tone === "bad" &&
    notice.channel &&
    channels.data?.items.some((c) => c.channel === notice.channel && c.configured)
      ? { channel: notice.channel, message: notice.text }
      : null;
  const connectedOne =
    notice?.tone === "ok" ? items.find((d) => d.id === notice.destinationId) : undefined;

  useEffect(() => {
    if (!connectedOne) return;
    document.getElementById(`dest-${connectedOne.id}`)?.scrollIntoView({ block: "center" });
  }, [connectedOne]);

  return (
    <div className="page">
      <PageHeader
        title="Destinations"
        description="The stores your catalog is published to: whether each is healthy, and what is waiting to go out."
        actions={
          isOwner && items.length > 0 ? (
            <button type="button" className="btn" onClick={goToConnect}>
              Connect a store
            </button>
          ) : null
        }
      />

      {notice && !refused && !(notice.channel && channels.isLoading) ? (
        <div
          className={`alert alert-${notice.tone}`}
          role={notice.tone === "bad" ? "alert" : "status"}
          ref={noticeRef}
        >
          <p>
            {notice.tone === "bad" ? (
              <>
                <strong>The store was not connected:</strong> {notice.text}
              </>
            ) : (
              <>
                <strong>
                  {channelName(notice.text)} store connected
                  {connectedOne ? `: ${connectedOne.name}` : ""}.
                </strong>
                {connectedOne && missingSettings(connectedOne, channels.data?.items).length > 0
                  ? " Fill in its settings below before publishing to it."
                  : " You can publish to it now."}
              </>
            )}
          </p>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => setNotice(null)}
            aria-label="Dismiss this message"
          >
            Dismiss
          </button>
        </div>
      ) : null}

      {!isOwner ? (
        <Notice tone="info">
          <p>
            Your organisation's owner connects stores and manages their settings. You can publish to
            the stores below.
          </p>
        </Notice>
      ) : null}

      <ErrorMessage
        error={destinations.error}
        title="Could not load your stores"
        onRetry={() => void destinations.refetch()}
      />
      {destinations.isLoading ? (
        <Loading label="Loading your stores" />
      ) : destinations.data && items.length === 0 ? (
        <Empty title="No store connected yet">
          {isOwner
            ? "Connect your first store below; then publish products to it from the catalog."
            : "Once your organisation's owner connects a store, you can publish to it."}
        </Empty>
      ) : (
        <div className="dest-list">
          {items.map((d) => (
            <DestinationCard
              key={d.id}
              destination={d}
              channel={channels.data?.items.find((c) => c.channel === d.channel)}
              isOwner={isOwner}
              now={now}
              highlighted={connectedOne?.id === d.id}
              onDisconnect={() => setDisconnecting(d)}
            />
          ))}
        </div>
      )}

      {isOwner ? (
        <ConnectSection
          channels={channels.data?.items}
          loading={channels.isLoading}
          error={channels.error}
          onRetry={() => void channels.refetch()}
          refused={refused}
        />
      ) : null}

      <ConfirmDialog
        open={disconnecting !== null}
        title={`Disconnect “${disconnecting?.name ?? ""}”?`}
        confirmLabel="Disconnect"
        danger
        onConfirm={() => (disconnecting ? disconnect.mutateAsync(disconnecting) : undefined)}
        onClose={() => setDisconnecting(null)}
      >
        <p>
          <strong>Your products stay in the catalog.</strong> What changes:
        </p>
        <ul className="confirm-list">
          <li>{queuedDropText(disconnecting?.queue)}</li>
          <li>The store's access keys are erased here.</li>
          <li>
            <strong>Listings already on the store stay live there</strong>: disconnecting ends none
            of them. To take them down, unpublish them from the products first.
          </li>
          <li>You can connect the store again later.</li>
        </ul>
      </ConfirmDialog>
    </div>
  );
}

/** The header's "Connect a store": scrolls to the connect section and focuses its first field. */
function goToConnect() {
  const section = document.getElementById("connect");
  section?.scrollIntoView({ behavior: "smooth", block: "start" });
  section
    ?.querySelector<HTMLElement>("input:not([disabled]), button:not([disabled])")
    ?.focus({ preventScroll: true });
}

/**
 * Disconnects a store (the confirmation dialog shows a refusal); its products stay in the catalog.
 */
function useDisconnect() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (d: Destination) => endpoints.destinations.disconnect(d.id),
    onSuccess: async (result, d) => {
      await queryClient.invalidateQueries({ queryKey: qk.destinations });
      void queryClient.invalidateQueries({ queryKey: qk.products.all });
      const left = result.listingsLeftLive;
      toast.notify(
        `Disconnected “${d.name}”. Its products stay in your catalog${
          left > 0 ? `; ${left} listing${left === 1 ? " stays" : "s stay"} live on the store` : ""
        }.`,
        "ok",
      );
    },
  });
}
