import { randomBytes } from "node:crypto";
import { createApiKey, createOrg, createProduct, createUser, type Db, type ProductFields, type ProductView } from "@catalog/db";

export interface TestOrg {
  org: { id: string; name: string };
  member: { id: string; email: string; password: string };
  admin: { id: string; email: string; password: string };
  apiKey: string;
}

const unique = () => randomBytes(4).toString("hex");

/** A fresh org with a member, an admin and an API key; every test that needs tenancy makes its own. */
export async function createTestOrg(db: Db, label = "org"): Promise<TestOrg> {
  const id = unique();
  const org = await createOrg(db, `${label} ${id}`);
  const password = `pw-${unique()}-${unique()}`;
  const member = await createUser(db, { orgId: org.id, email: `member-${id}@test.local`, password, role: "member" });
  const admin = await createUser(db, { orgId: org.id, email: `admin-${id}@test.local`, password, role: "admin" });
  const { key } = await createApiKey(db, org.id, "test");
  return {
    org,
    member: { id: member.id, email: member.email, password },
    admin: { id: admin.id, email: admin.email, password },
    apiKey: key,
  };
}

export function makeProduct(db: Db, orgId: string, fields: Partial<ProductFields> & { title: string }): Promise<ProductView> {
  return createProduct(db, orgId, fields, { type: "system", id: null });
}
