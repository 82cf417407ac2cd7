import type { Db } from "./client.js";
import { createApiKey, createOrg, createUser, type CreatedApiKey } from "./accounts.js";
import { createProduct } from "./products.js";
import { hashPassword } from "./secrets.js";
import { sealCredentials, type CredentialKeyring } from "./credentials.js";
import type { Role } from "./generated/enums.js";

export interface DemoSeed {
  org: { id: string; name: string };
  users: { email: string; password: string; role: Role }[];
  apiKey: CreatedApiKey;
  /** The demo destination on the local stand-in channel, when one was asked for. */
  destination: { id: string; name: string; baseUrl: string } | null;
}

export interface DemoDestinationOptions {
  keyring: CredentialKeyring;
  /** Base URL of a running stand-in channel (packages/channels). */
  standinUrl: string;
}

const DEMO_DESTINATION = "Demo stand-in store";

const DEMO_ORG = "Demo Shop";
const DEMO_USERS = [
  { email: "member@demo.local", password: "demo-member-password", role: "member" },
  { email: "owner@demo.local", password: "demo-owner-password", role: "owner" },
  // The platform operator belongs to the demo org too (every user belongs to one).
  { email: "admin@demo.local", password: "demo-admin-password", role: "admin" },
] as const;

const DEMO_PRODUCTS = [
  {
    title: "Linen Shirt",
    sku: "DEMO-SHIRT-1",
    price: { amount: "49.00", currency: "EUR" },
    brand: "Acme",
  },
  {
    title: "Canvas Tote Bag",
    sku: "DEMO-TOTE-1",
    price: { amount: "19.90", currency: "EUR" },
    brand: "Acme",
  },
  {
    title: "Ceramic Mug",
    sku: "DEMO-MUG-1",
    price: { amount: "12.50", currency: "EUR" },
    brand: "Potter & Co",
  },
];

/**
 * Creates (or brings back to its known state) the demo org with a member, an owner, a platform
 * operator (admin), sample products and, given a stand-in channel, a destination on it; issues
 * a fresh extension API key, revoking the earlier demo keys.
 */
export async function seedDemo(db: Db, standin?: DemoDestinationOptions): Promise<DemoSeed> {
  const existing = await db.org.findUnique({ where: { name: DEMO_ORG } });
  const org = existing ? { id: existing.id, name: existing.name } : await createOrg(db, DEMO_ORG);
  for (const user of DEMO_USERS) {
    const found = await db.user.findUnique({ where: { email: user.email } });
    if (!found) await createUser(db, { orgId: org.id, ...user });
    else
      await db.user.update({
        where: { id: found.id },
        data: { orgId: org.id, role: user.role, passwordHash: await hashPassword(user.password) },
      });
  }
  for (const product of DEMO_PRODUCTS) {
    const found = await db.product.findFirst({ where: { orgId: org.id, sku: product.sku } });
    if (!found) await createProduct(db, org.id, product, { type: "system", id: null });
  }
  await db.apiKey.updateMany({
    where: { orgId: org.id, name: "demo-extension", revokedAt: null },
    data: { revokedAt: new Date() },
  });
  const apiKey = await createApiKey(db, org.id, "demo-extension");
  const destination = standin ? await seedDestination(db, org.id, standin) : null;
  return { org, users: DEMO_USERS.map((u) => ({ ...u })), apiKey, destination };
}

async function seedDestination(
  db: Db,
  orgId: string,
  { keyring, standinUrl }: DemoDestinationOptions,
) {
  const data = {
    channel: "standin" as const,
    baseUrl: standinUrl,
    disconnectedAt: null,
    health: "ok" as const,
    ...sealCredentials(keyring, { token: "demo-store:demo-secret" }),
  };
  const found = await db.destinationAccount.findFirst({ where: { orgId, name: DEMO_DESTINATION } });
  const row = found
    ? await db.destinationAccount.update({ where: { id: found.id }, data })
    : await db.destinationAccount.create({ data: { orgId, name: DEMO_DESTINATION, ...data } });
  return { id: row.id, name: row.name, baseUrl: standinUrl };
}
