// A minimal SMTP client (RFC 5321) over node:net and node:tls, enough to hand one plain-text
// message to a relay: EHLO, STARTTLS when offered (smtp:) or TLS from the start (smtps:), AUTH
// PLAIN when the URL has credentials, MAIL FROM, RCPT TO, DATA, QUIT. No pooling, no retries: a
// failed send is logged by the caller.
import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls, type TLSSocket } from "node:tls";
import { formatMessage, type MailMessage } from "./message.js";

export interface SmtpEndpoint {
  secure: boolean;
  host: string;
  port: number;
  user: string;
  password: string;
}

/** Reads `smtp://user:pass@host:port` or `smtps://...` (ports 587 and 465 by default). */
export function parseSmtpUrl(value: string): SmtpEndpoint {
  const url = new URL(value);
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}//`);
  const secure = url.protocol === "smtps:";
  return {
    secure,
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

const isLoopback = (host: string) =>
  host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));

interface Reply {
  code: number;
  lines: string[];
}

/** One SMTP conversation: replies are read line by line, a multi-line reply whole. */
class Conversation {
  private buffer = "";
  private replies: Reply[] = [];
  private partial: string[] = [];
  private waiting: { resolve(r: Reply): void; reject(e: Error): void } | null = null;
  private failure: Error | null = null;

  constructor(
    public socket: Socket | TLSSocket,
    private readonly timeoutMs: number,
  ) {
    this.listen(socket);
  }

  listen(socket: Socket | TLSSocket) {
    this.socket = socket;
    socket.setEncoding("utf8");
    socket.setTimeout(this.timeoutMs, () =>
      socket.destroy(new Error(`the SMTP server did not answer within ${this.timeoutMs} ms`)),
    );
    socket.on("data", (chunk: string) => this.take(chunk));
    socket.on("error", (error: Error) => this.fail(error));
    socket.on("close", () => this.fail(new Error("the SMTP server closed the connection")));
  }

  private take(chunk: string) {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf("\r\n")) >= 0) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.partial.push(line.slice(4));
      if (line[3] !== "-") {
        const reply = { code: Number(line.slice(0, 3)), lines: this.partial };
        this.partial = [];
        if (this.waiting) {
          this.waiting.resolve(reply);
          this.waiting = null;
        } else this.replies.push(reply);
      }
    }
  }

  private fail(error: Error) {
    this.failure ??= error;
    this.waiting?.reject(this.failure);
    this.waiting = null;
  }

  read(): Promise<Reply> {
    const next = this.replies.shift();
    if (next) return Promise.resolve(next);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** Sends `line` (unless null) and reads the reply, which must have one of `expected` codes. */
  async expect(line: string | null, expected: number[], what = line ?? "greeting") {
    if (line !== null) this.socket.write(`${line}\r\n`);
    const reply = await this.read();
    if (!expected.includes(reply.code))
      throw new Error(
        `the SMTP server refused ${what.split(" ")[0]}: ${reply.code} ${reply.lines.join(" ")}`,
      );
    return reply;
  }

  /** Stops listening to the current socket (before STARTTLS wraps it). */
  detach() {
    this.socket.removeAllListeners("data");
    this.socket.removeAllListeners("error");
    this.socket.removeAllListeners("close");
    this.socket.setTimeout(0);
  }
}

function open(endpoint: SmtpEndpoint): Promise<Socket | TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = endpoint.secure
      ? connectTls({ host: endpoint.host, port: endpoint.port, servername: endpoint.host })
      : connectTcp({ host: endpoint.host, port: endpoint.port });
    socket.once(endpoint.secure ? "secureConnect" : "connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

function startTls(socket: Socket, host: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const tls = connectTls({ socket, servername: host }, () => {
      tls.off("error", reject);
      resolve(tls);
    });
    tls.once("error", reject);
  });
}

/** Hands `message` to the SMTP server at `endpoint`; rejects with the server's refusal in words. */
export async function sendSmtp(
  endpoint: SmtpEndpoint,
  message: MailMessage,
  options: { timeoutMs: number; clientName: string },
): Promise<void> {
  const socket = await open(endpoint);
  const smtp = new Conversation(socket, options.timeoutMs);
  try {
    await smtp.expect(null, [220]);
    let hello = await smtp.expect(`EHLO ${options.clientName}`, [250]);
    let encrypted = endpoint.secure;
    if (!encrypted && hello.lines.some((l) => /^STARTTLS\b/i.test(l))) {
      await smtp.expect("STARTTLS", [220]);
      smtp.detach();
      smtp.listen(await startTls(smtp.socket, endpoint.host));
      encrypted = true;
      hello = await smtp.expect(`EHLO ${options.clientName}`, [250]);
    }
    if (endpoint.user) {
      if (!encrypted && !isLoopback(endpoint.host))
        throw new Error(
          "the SMTP server offers no STARTTLS: the password is not sent unencrypted (use smtps://)",
        );
      const plain = Buffer.from(`\0${endpoint.user}\0${endpoint.password}`).toString("base64");
      await smtp.expect(`AUTH PLAIN ${plain}`, [235], "AUTH");
    }
    const { from, to, data } = formatMessage(message, endpoint.host);
    await smtp.expect(`MAIL FROM:<${from}>`, [250]);
    await smtp.expect(`RCPT TO:<${to}>`, [250, 251]);
    await smtp.expect("DATA", [354]);
    await smtp.expect(`${data}\r\n.`, [250], "DATA");
    await smtp.expect("QUIT", [221]).catch(() => undefined);
  } finally {
    smtp.socket.destroy();
  }
}
