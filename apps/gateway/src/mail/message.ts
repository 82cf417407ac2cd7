// One plain-text email as the SMTP client sends it: headers (RFC 5322), a body in 7 bits when it
// is ASCII and in base64 otherwise, lines ending CRLF and dot-stuffed for DATA.
import { randomBytes } from "node:crypto";

export interface MailMessage {
  /** An address, or `Name <address>`. */
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** The bare address of `Name <address>` or `address`. */
export const addressOf = (mailbox: string): string =>
  (/<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox).trim();

// No header may carry a line break: one would let a value add headers of its own.
const oneLine = (value: string) => value.replace(/[\r\n]+/g, " ");

const ascii = (value: string) => /^[\x20-\x7e]*$/.test(value);

/** A header value: as it is when printable ASCII, else an RFC 2047 encoded word. */
const headerText = (value: string) =>
  ascii(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString("base64")}?=`;

export function formatMessage(
  message: MailMessage,
  domain: string,
): { from: string; to: string; data: string } {
  const from = addressOf(oneLine(message.from));
  const to = addressOf(oneLine(message.to));
  const lines = message.text.replace(/\r\n?/g, "\n").split("\n");
  const plain = lines.every((l) => ascii(l) && l.length <= 998);
  const body = plain
    ? lines.map((l) => (l.startsWith(".") ? `.${l}` : l)).join("\r\n")
    : (
        Buffer.from(message.text)
          .toString("base64")
          .match(/.{1,76}/g) ?? []
      ).join("\r\n");
  const headers = [
    `From: ${oneLine(message.from)}`,
    `To: ${to}`,
    `Subject: ${headerText(oneLine(message.subject))}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomBytes(12).toString("hex")}@${domain}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    `Content-Transfer-Encoding: ${plain ? "7bit" : "base64"}`,
  ];
  return { from, to, data: `${headers.join("\r\n")}\r\n\r\n${body}` };
}
