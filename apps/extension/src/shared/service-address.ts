// The service's address as a merchant types it ("catalog.example.com", "http://127.0.0.1:3000/"),
// made into the base every call starts from: scheme, host, port and any path prefix, no trailing
// slash, no query. Pure, so the pairing form can say what is wrong before asking the network.

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type ServiceAddress = { ok: true; url: string } | { ok: false; error: string };

export function normalizeServiceUrl(input: string): ServiceAddress {
  const text = input.trim();
  if (text === "")
    return {
      ok: false,
      error: "Enter the service's address, for example https://catalog.example.com",
    };
  // A bare host gets https, except on this computer, where a local service rarely has a
  // certificate.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? text
    : `${LOCAL_HOSTS.has(text.split(/[:/]/)[0]!.toLowerCase()) ? "http" : "https"}://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, error: `“${text}” is not a web address` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, error: "The address must start with https:// (or http://)" };
  if (url.username || url.password)
    return {
      ok: false,
      error: "Leave the user name and password out of the address: the key is the credential",
    };
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}

/** Where the dashboard shows something, on the paired service. */
export function dashboardUrl(serviceUrl: string, path: string): string {
  return `${serviceUrl}${path.startsWith("/") ? path : `/${path}`}`;
}
