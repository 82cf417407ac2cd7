import { randomBytes } from "node:crypto";
import {
  createApiKey,
  createOrg,
  createProduct,
  createUser,
  type Db,
  type ProductFields,
  type ProductView,
  type Role,
} from "@catalog/db";

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export interface TestOrg {
  org: { id: string; name: string };
  /** Reads, imports and publishes. */
  member: TestUser;
  /** Also manages the org's destinations (connect, settings, disconnect). */
  owner: TestUser;
  /** The platform operator (role `admin`): /api/system over every org; in this org, a member. */
  admin: TestUser;
  apiKey: string;
}

const unique = () => randomBytes(4).toString("hex");

/**
 * A fresh org with a member, an owner, an operator and an API key; every test that needs tenancy
 * makes its own.
 */
export async function createTestOrg(db: Db, label = "org"): Promise<TestOrg> {
  const id = unique();
  const org = await createOrg(db, `${label} ${id}`);
  const password = `pw-${unique()}-${unique()}`;
  const user = async (role: Role): Promise<TestUser> => {
    const created = await createUser(db, {
      orgId: org.id,
      email: `${role}-${id}@test.local`,
      password,
      role,
    });
    return { id: created.id, email: created.email, password };
  };
  const member = await user("member");
  const owner = await user("owner");
  const admin = await user("admin");
  const { key } = await createApiKey(db, org.id, "test");
  return { org, member, owner, admin, apiKey: key };
}

/**
 * A user of a fresh org whose only session expired `daysAgo` days ago: what a retention pass
 * removes once its session setting has passed. Returns the user's id.
 */
export async function userWithExpiredSession(
  db: Db,
  label: string,
  daysAgo: number,
): Promise<string> {
  const org = await createOrg(db, `${label} ${unique()}`);
  const user = await db.user.create({
    data: { orgId: org.id, email: `expired-${unique()}@test.local`, passwordHash: "x" },
  });
  await db.session.create({
    data: {
      tokenHash: randomBytes(32).toString("hex"),
      userId: user.id,
      expiresAt: new Date(Date.now() - daysAgo * 86_400_000),
    },
  });
  return user.id;
}

export function makeProduct(
  db: Db,
  orgId: string,
  fields: Partial<ProductFields> & { title: string },
): Promise<ProductView> {
  return createProduct(db, orgId, fields, { type: "system", id: null });
}
