// Sends the gateway's emails through SMTP_URL, or, without it, logs that mail is off. Sending
// never holds up the request that asked for it (a reset request answers alike whether or not a
// mail goes out); close() waits for the sends under way.
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import { parseSmtpUrl, sendSmtp } from "./smtp-client.js";
import type { MailMessage } from "./message.js";

export interface Mailer {
  /** False when SMTP_URL is unset: nothing is sent. */
  readonly enabled: boolean;
  /**
   * Starts sending `message` (`what` names it in the log, never its content); failures are logged.
   */
  send(what: string, message: Omit<MailMessage, "from">): void;
  /** Waits for the sends under way. */
  close(): Promise<void>;
}

const SEND_TIMEOUT_MS = 30_000;

export function createMailer(
  config: { SMTP_URL: string; MAIL_FROM: string },
  log: FastifyBaseLogger,
): Mailer {
  if (!config.SMTP_URL) {
    log.info("mail is off (SMTP_URL is unset): password reset links are not sent");
    return {
      enabled: false,
      send(what) {
        log.warn(`mail is off (SMTP_URL is unset): no ${what} email was sent`);
      },
      close: async () => {},
    };
  }
  const endpoint = parseSmtpUrl(config.SMTP_URL);
  const pending = new Set<Promise<void>>();
  return {
    enabled: true,
    send(what, message) {
      const sending = sendSmtp(
        endpoint,
        { ...message, from: config.MAIL_FROM },
        { timeoutMs: SEND_TIMEOUT_MS, clientName: hostname() || "localhost" },
      )
        .then(() => log.info({ smtpHost: endpoint.host }, `${what} email sent`))
        .catch((error: unknown) =>
          log.error(
            { smtpHost: endpoint.host, reason: error instanceof Error ? error.message : error },
            `${what} email could not be sent`,
          ),
        )
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    close: async () => {
      await Promise.all(pending);
    },
  };
}
