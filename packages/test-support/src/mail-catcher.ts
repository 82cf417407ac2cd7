// A mail catcher for tests: an SMTP server on loopback that accepts every message and keeps it, so
// a test reads the mail the service sent (a password reset link) without any mail leaving the
// machine. `serveMailbox` shows the kept mail over HTTP for tests in other processes (the browser
// tests' workers).
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";

export interface CapturedMail {
  from: string;
  to: string[];
  /** The whole message as received, dot-stuffing undone. */
  raw: string;
  headers: Record<string, string>;
  /** The body, base64 decoded when it was sent so. */
  text: string;
  /** The AUTH PLAIN user name the client gave, if any. */
  user: string | null;
}

export interface MailCatcher {
  /** smtp://127.0.0.1:<port> (with `user:pass@` when `credentials` were given). */
  url: string;
  messages: CapturedMail[];
  /** The first message to `to` (received already or to come), or a rejection after `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<CapturedMail>;
  /** Connections so far: a test that sends no mail checks it stayed 0. */
  connections: number;
  /** With `hold`, greets the connections waiting (and later ones) at last. */
  release(): void;
  close(): Promise<void>;
}

function parse(raw: string, from: string, to: string[], user: string | null): CapturedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split + 4) : "";
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = /base64/i.test(headers["content-transfer-encoding"] ?? "")
    ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
    : body.replace(/\r\n/g, "\n");
  return { from, to, raw, headers, text, user };
}

/**
 * Starts the catcher on 127.0.0.1 and a free port. `hold`: connections are not greeted until
 * release(), so a sender waits (a test shows an answer does not wait for the mail).
 */
export async function startMailCatcher(
  options: { hold?: boolean; credentials?: { user: string; password: string } } = {},
): Promise<MailCatcher> {
  const messages: CapturedMail[] = [];
  const waiters: { to: string; resolve(m: CapturedMail): void }[] = [];
  let held: (() => void)[] | null = options.hold ? [] : null;
  const sockets = new Set<Socket>();
  let connections = 0;

  const keep = (mail: CapturedMail) => {
    messages.push(mail);
    for (const w of [...waiters])
      if (mail.to.includes(w.to.toLowerCase())) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(mail);
      }
  };

  const converse = (socket: Socket) => {
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let data: string[] = [];
    let from = "";
    let to: string[] = [];
    let user: string | null = null;
    const say = (line: string) => socket.write(`${line}\r\n`);
    const command = (line: string) => {
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "EHLO" || verb === "HELO")
        return say("250-catcher\r\n250-AUTH PLAIN\r\n250 8BITMIME");
      if (verb === "AUTH") {
        const decoded = Buffer.from(line.split(" ")[2] ?? "", "base64").toString("utf8");
        const [, name = "", password = ""] = decoded.split("\0");
        const c = options.credentials;
        if (c && (name !== c.user || password !== c.password))
          return say("535 5.7.8 authentication failed");
        user = name;
        return say("235 2.7.0 accepted");
      }
      if (verb === "MAIL") {
        if (options.credentials && user === null) return say("530 5.7.0 authentication required");
        from = /<([^>]*)>/.exec(line)?.[1] ?? "";
        to = [];
        return say("250 OK");
      }
      if (verb === "RCPT") {
        to.push((/<([^>]*)>/.exec(line)?.[1] ?? "").toLowerCase());
        return say("250 OK");
      }
      if (verb === "DATA") {
        inData = true;
        data = [];
        return say("354 end with <CRLF>.<CRLF>");
      }
      if (verb === "RSET" || verb === "NOOP") return say("250 OK");
      if (verb === "QUIT") {
        say("221 bye");
        return socket.end();
      }
      return say("502 5.5.1 not implemented");
    };
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!inData) command(line);
        else if (line === ".") {
          inData = false;
          keep(parse(data.join("\r\n"), from, to, user));
          say("250 OK kept");
        } else data.push(line.startsWith(".") ? line.slice(1) : line);
      }
    });
    socket.on("error", () => undefined);
    say("220 127.0.0.1 mail catcher");
  };

  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    if (held) held.push(() => converse(socket));
    else converse(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const c = options.credentials;
  const auth = c ? `${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@` : "";

  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    messages,
    get connections() {
      return connections;
    },
    next(to, timeoutMs = 10_000) {
      const found = messages.find((m) => m.to.includes(to.toLowerCase()));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          to,
          resolve: (m: CapturedMail) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    release() {
      const greet = held ?? [];
      held = null;
      greet.forEach((start) => start());
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The catcher's mail over HTTP on 127.0.0.1: GET /messages?to=<address> answers the messages to
 * that address as JSON, oldest first. Returns its base URL and how to stop it.
 */
export async function serveMailbox(
  catcher: MailCatcher,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: HttpServer = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/messages") {
      res.writeHead(404).end();
      return;
    }
    const to = (url.searchParams.get("to") ?? "").toLowerCase();
    const found = catcher.messages.filter((m) => m.to.includes(to));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(found));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
