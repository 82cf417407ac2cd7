import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";

/** A merchant's system on loopback: records each request and answers 204. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/catalog-events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("an owner adds a webhook endpoint, keeps its secret, and a signed test event arrives and shows in the log", async ({
  page,
  org,
}) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, org.owner, "/products");
    await page.getByRole("link", { name: "Webhooks" }).first().click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

    const form = page.getByRole("region", { name: "Add an endpoint" });
    await form.getByLabel("Endpoint URL").fill(receiver.url);
    await form.getByLabel(/An import finished storing/).check();
    await form.getByLabel(/A listing was published/).check();
    await form.getByLabel("Description (optional)").fill("ERP");
    await form.getByRole("button", { name: "Add endpoint" }).click();

    const created = page.getByRole("region", { name: `Endpoint added: ${receiver.url}` });
    await expect(created).toContainText("you will not see it again");
    const secret = (await created.getByLabel("The signing secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await created.getByRole("button", { name: "I have saved it" }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    const card = page.getByRole("region", { name: `Endpoint ${receiver.url}` });
    await expect(card.getByText("Enabled")).toBeVisible();
    await card.getByRole("button", { name: "Send test event" }).click();

    const log = card.getByRole("table", { name: "Deliveries" });
    const row = log.getByRole("row").filter({ hasText: "webhook.test" });
    await expect(row.getByText("Succeeded")).toBeVisible();
    await expect(row.getByRole("cell").nth(2)).toHaveText("204");
    await expect(row.getByRole("cell").nth(3)).toHaveText("1");

    // The receiver verifies what it got with the Standard Webhooks library and the secret shown.
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const payload = new Webhook(secret).verify(got!.body, {
      "webhook-id": String(got!.headers["webhook-id"]),
      "webhook-timestamp": String(got!.headers["webhook-timestamp"]),
      "webhook-signature": String(got!.headers["webhook-signature"]),
    }) as { type: string };
    expect(payload.type).toBe("webhook.test");
    await expect(row).toContainText(String(got!.headers["webhook-id"]));
  } finally {
    await receiver.close();
  }
});
