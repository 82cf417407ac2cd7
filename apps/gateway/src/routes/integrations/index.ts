// Connecting a store: GET /integrations/:channel/connect sends the merchant to the channel's
// authorize page with a single-use state; the channel sends them back to /callback, where the
// code is exchanged, the tokens sealed and the destination created (or its tokens replaced).
// WooCommerce delivers its keys by a server-to-server POST to the same callback first.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import { ConnectError, type ChannelRegistry, type ConnectFlow } from "@catalog/channels";
import {
  connectDestination,
  listDestinations,
  randomToken,
  ServiceError,
  type CredentialKeyring,
  type Db,
  type DestinationView,
} from "@catalog/db";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { prefersHtml } from "../../accept.js";
import { principalOf } from "../../plugins/auth.js";
import { classify, outageAware } from "../../plugins/errors.js";
import { errorResponses } from "../../schemas/common.js";
import { connectStates, STATE_TTL_SECONDS, type PendingConnect } from "./connect-state.js";
import { ConnectedSchema, DeliveredKeysSchema, integrationSchemas } from "./schemas.js";

export interface IntegrationOptions {
  db: Db;
  redis: RedisClient;
  redisPrefix: string;
  channels: ChannelRegistry;
  /** Null when CREDENTIALS_KEYS is not configured: nothing can be connected. */
  keyring: CredentialKeyring | null;
  publicUrl: string;
}

/**
 * The dashboard's page for destinations, where a browser lands after a connect, with the outcome in
 * the query.
 */
const backToDashboard = (outcome: Record<string, string>) =>
  `/destinations?${new URLSearchParams(outcome).toString()}`;

const BROWSER_FAILURES =
  "A browser (Accept preferring text/html over JSON) is sent on any failure to `/destinations?connectError=<message>&channel=<channel>` " +
  "(the message is the error's; channel when it names a channel that connects), the dashboard's form for that channel; other clients get the JSON answers below.";

/** How long the channel's token endpoint may take during a callback. */
const EXCHANGE_TIMEOUT_MS = 15_000;

export const integrationRoutes: FastifyPluginAsyncTypebox<IntegrationOptions> = async (
  app,
  options,
) => {
  const { db, redisPrefix, channels, keyring, publicUrl } = options;
  const states = connectStates(options.redis, redisPrefix);
  const common = { tags: ["integrations"] };
  // The app's handler (plugins/errors.ts): JSON clients of the callback keep its answers.
  const jsonErrors = app.errorHandler;
  const { ChannelParamsSchema, ConnectQuerySchema, CallbackQuerySchema, connectAsks, delivering } =
    integrationSchemas(channels.channels());
  const connectable = channels
    .channels()
    .filter((c) => c.connect)
    .map((c) => c.channel)
    .join(", ");

  const flowOf = (channel: string): ConnectFlow => {
    const flow = channels.channels().find((c) => c.channel === channel)?.connect ?? null;
    if (!flow)
      throw new ServiceError(
        404,
        `there is no integration for channel "${channel}" (${connectable})`,
      );
    return flow;
  };
  const sealingKeys = (): CredentialKeyring => {
    if (!keyring)
      throw new ServiceError(
        503,
        "connecting a channel needs CREDENTIALS_KEYS on the gateway (keys that seal the tokens)",
      );
    return keyring;
  };
  const asServiceError = (error: unknown): never => {
    if (error instanceof ConnectError) throw new ServiceError(error.status, error.message);
    throw error;
  };
  const finish = async (
    flow: ConnectFlow,
    state: PendingConnect,
    params: Record<string, string>,
  ) => {
    const account = await flow
      .finish({
        params,
        pending: state.pending,
        redirectUri: state.redirectUri,
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
      })
      .catch(asServiceError);
    return connectDestination(db, sealingKeys(), {
      orgId: state.orgId,
      channel: flow.channel,
      ...account,
    });
  };
  const shown = (d: DestinationView) => ({
    id: d.id,
    channel: d.channel,
    name: d.name,
    health: d.health,
    connectedAt: d.connectedAt,
  });
  /**
   * A browser (Accept preferring text/html) is sent back to the dashboard with the outcome of any
   * failure (an expired session too) and the channel whose form shows it, rather than left on a
   * JSON page; other clients keep the app's JSON answers.
   */
  const backToDashboardOnError = (
    thrown: FastifyError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void => {
    if (!prefersHtml(request.headers.accept)) {
      jsonErrors.call(app, thrown, request, reply);
      return;
    }
    const error = outageAware(thrown, request);
    const { status, message } = classify(error, 0);
    const internal = status >= 500 && !(error instanceof ServiceError);
    if (internal) request.log.error({ err: error }, "connect failed");
    const { channel } = request.params as { channel?: string };
    const known = channels.channels().some((c) => c.channel === channel && c.connect);
    void reply.redirect(
      backToDashboard({
        connectError: internal
          ? `the store could not be connected: internal error, quote request id ${request.id}`
          : message,
        ...(known && channel ? { channel } : {}),
      }),
      302,
    );
  };
  const refused = () =>
    new ServiceError(
      403,
      "this connect attempt is unknown, expired, already used or was started by another session: connect again",
    );

  // Connecting is an owner's act, and so is its return: a state is bound to the session that
  // started it, and the callback checks again that this session may still connect.
  app.get(
    "/integrations/:channel/connect",
    {
      onRequest: app.requireOwner,
      errorHandler: backToDashboardOnError,
      schema: {
        ...common,
        security: [{ session: [] }],
        params: ChannelParamsSchema,
        querystring: ConnectQuerySchema,
        operationId: "connectChannel",
        summary: "Start connecting a store: redirects (302) to the channel's authorize page",
        description: `Owners only: a member, or the platform operator in its own org, is 403. It needs, per channel: ${connectAsks}. The state is good for one callback, from this session, within ${STATE_TTL_SECONDS} s. ${BROWSER_FAILURES}`,
        response: {
          302: {
            type: "null",
            description:
              "Location: the channel's authorize page; for a browser's refused request, the dashboard's destinations page with connectError and channel",
          },
          ...errorResponses(401, 403, 404, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const flow = flowOf(request.params.channel);
      sealingKeys();
      const missing = flow.missingConfiguration();
      if (missing.length > 0)
        throw new ServiceError(
          503,
          `${flow.channel} is not configured on this server: set ${missing.join(", ")}`,
        );
      const principal = principalOf(request);
      const redirectUri = `${publicUrl}/api/integrations/${flow.channel}/callback`;
      const state = randomToken();
      const redirect = await flow
        .start({ state, redirectUri, query: request.query as Record<string, string> })
        .catch(asServiceError);
      await states.open(state, {
        channel: flow.channel,
        orgId: principal.org.id,
        session: states.bindSession(principal.sessionId),
        redirectUri,
        pending: redirect.pending,
      });
      return reply.redirect(redirect.url, 302);
    },
  );

  app.get(
    "/integrations/:channel/callback",
    {
      onRequest: app.requireOwner,
      errorHandler: backToDashboardOnError,
      schema: {
        ...common,
        security: [{ session: [] }],
        params: ChannelParamsSchema,
        querystring: CallbackQuerySchema,
        operationId: "completeChannelConnection",
        summary:
          "Where the channel sends the merchant back: checks the state, exchanges the code, stores the tokens sealed and creates the destination",
        description:
          "Owners only (the session that started the connect): anyone else is 403. A browser (Accept preferring text/html over JSON) " +
          `gets 302 instead of JSON: to \`/destinations?connected=<channel>&destination=<id>\` on success. ${BROWSER_FAILURES}`,
        response: {
          200: ConnectedSchema,
          302: {
            type: "null",
            description:
              "Browsers only: Location is the dashboard's destinations page, with connected and destination, or connectError",
          },
          ...errorResponses(400, 401, 403, 404, 409, 422, 429, 502, 503),
        },
      },
    },
    async (request, reply) => {
      const answer = await callback(
        request,
        request.params.channel,
        request.query as Record<string, string>,
      );
      if (!prefersHtml(request.headers.accept)) return answer;
      return reply.redirect(
        backToDashboard({
          connected: answer.destination.channel,
          destination: answer.destination.id,
        }),
        302,
      );
    },
  );

  async function callback(request: FastifyRequest, channel: string, query: Record<string, string>) {
    const flow = flowOf(channel);
    const principal = principalOf(request);
    const session = states.bindSession(principal.sessionId);
    const stateParam = flow.deliveredStateParam ?? "state";
    const state = query[stateParam];
    if (!state)
      throw new ServiceError(
        422,
        `querystring/${stateParam} is required: the channel's redirect carries it`,
      );
    if (flow.deliveredStateParam) {
      // The keys came by the store's own POST; the merchant's return only shows the outcome.
      const done = await states.takeFinished(state);
      const connected =
        done?.session === session
          ? (await listDestinations(db, principal.org.id)).find((d) => d.id === done.destinationId)
          : undefined;
      if (connected) return { destination: shown(connected), reconnected: done!.reconnected };
      const pending = await states.take(state);
      if (pending && query.success === "0")
        throw new ServiceError(403, `the ${flow.channel} store owner refused access`);
      if (pending && pending.session === session)
        throw new ServiceError(
          409,
          `the ${flow.channel} store has not delivered the keys: connect again`,
        );
      throw refused();
    }
    const pending = await states.take(state);
    if (!pending || pending.session !== session || pending.channel !== flow.channel)
      throw refused();
    const { destination, reconnected } = await finish(flow, pending, query);
    request.log.info(
      { destinationId: destination.id, channel: flow.channel, reconnected },
      "store connected",
    );
    return { destination: shown(destination), reconnected };
  }

  app.post(
    "/integrations/:channel/callback",
    {
      schema: {
        ...common,
        params: ChannelParamsSchema,
        body: DeliveredKeysSchema,
        operationId: "receiveChannelKeys",
        security: [],
        summary: `${delivering} only: the store's server delivers the API keys here (authenticated by the single-use state it carries)`,
        response: {
          200: { type: "object", properties: { ok: { type: "boolean" } } },
          ...errorResponses(400, 401, 403, 404, 415, 422, 429, 502, 503),
        },
      },
    },
    async (request) => {
      const flow = flowOf(request.params.channel);
      if (!flow.deliveredStateParam)
        throw new ServiceError(404, `${flow.channel} does not deliver keys by POST`);
      const params = Object.fromEntries(
        Object.entries(request.body).map(([k, v]) => [k, String(v)]),
      );
      const state = params[flow.deliveredStateParam];
      const pending = state ? await states.take(state) : null;
      if (!state || !pending || pending.channel !== flow.channel) throw refused();
      const { destination, reconnected } = await finish(flow, pending, params);
      await states.finished(state, {
        session: pending.session,
        destinationId: destination.id,
        reconnected,
      });
      request.log.info(
        { destinationId: destination.id, channel: flow.channel, reconnected },
        "store connected",
      );
      return { ok: true };
    },
  );
};
