import { authenticateApiKey, createDb, openSession, type Db, type DemoSeed } from "@catalog/db";
import { cli, SLOW } from "./run-cli.js";

let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
});
afterAll(() => db.$disconnect());

const suffix = () => Math.random().toString(36).slice(2, 8);

test(
  "an operator creates an org, a member, an owner, a platform operator and an API key that all work",
  async () => {
    const name = `CLI Org ${suffix()}`;
    const org = await cli(["create-org", "--name", name, "--json"]);
    expect(org).toMatchObject({ code: 0 });
    const orgId = (JSON.parse(org.stdout) as { id: string }).id;

    const email = `cli-${suffix()}@test.local`;
    const member = await cli([
      "create-user",
      "--org",
      name,
      "--email",
      email,
      "--password",
      "a-long-password",
    ]);
    expect(member.code).toBe(0);
    expect(member.stdout).toMatch(new RegExp(`Created member ${email}`));
    await expect(openSession(db, email, "a-long-password", 60)).resolves.toMatchObject({
      principal: { user: { role: "member" } },
    });
    for (const role of ["owner", "admin"]) {
      const made = await cli(
        [
          "create-user",
          "--org",
          orgId,
          "--email",
          `${role}-${email}`,
          "--role",
          role,
          "--password-stdin",
        ],
        "stdin-password-1\n",
      );
      expect(made).toMatchObject({ code: 0 });
      expect(made.stdout).toContain(`Created ${role} ${role}-${email}`);
      await expect(
        openSession(db, `${role}-${email}`, "stdin-password-1", 60),
      ).resolves.toMatchObject({ principal: { user: { role }, org: { id: orgId } } });
    }

    const key = await cli(["create-api-key", "--org", name, "--name", "ext"]);
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/shown only this once/);
    const plaintext = key.stdout.trim().split("\n").at(-1)!;
    await expect(authenticateApiKey(db, plaintext)).resolves.toMatchObject({ orgId });
  },
  SLOW,
);

test.each([
  [["create-org", "--name", ""], /--name is required/, 2],
  [
    [
      "create-user",
      "--org",
      "No Such Org",
      "--email",
      "x@test.local",
      "--password",
      "long-enough-pw",
    ],
    /org "No Such Org" not found/,
    1,
  ],
  [
    ["create-user", "--org", "x", "--email", "x@test.local", "--password", "pw", "--role", "root"],
    /--role must be one of member, owner, admin/,
    2,
  ],
  [
    [
      "create-user",
      "--org",
      "x",
      "--email",
      "x@test.local",
      "--password",
      "pw",
      "--role",
      "operator",
    ],
    /--role must be one of member, owner, admin \(admin is the platform operator\), not "operator"/,
    2,
  ],
  [["create-api-key"], /--org is required/, 2],
  [["frobnicate"], /Unknown command "frobnicate"/, 2],
  [["create-org", "--colour", "red"], /Unknown option '--colour'/, 2],
])(
  "%j fails with a clear message",
  async (args, message, code) => {
    const result = await cli(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\s+at /);
  },
  SLOW,
);

test(
  "a duplicate email or org name is refused with a clear message",
  async () => {
    const name = `Dup Org ${suffix()}`;
    expect((await cli(["create-org", "--name", name])).code).toBe(0);
    const dupOrg = await cli(["create-org", "--name", name]);
    expect(dupOrg.code).toBe(1);
    expect(dupOrg.stderr).toMatch(/already exists/);
    const email = `dup-${suffix()}@test.local`;
    expect(
      (await cli(["create-user", "--org", name, "--email", email, "--password", "long-enough-pw"]))
        .code,
    ).toBe(0);
    const dup = await cli([
      "create-user",
      "--org",
      name,
      "--email",
      email.toUpperCase(),
      "--password",
      "long-enough-pw",
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(new RegExp(`a user with email ${email} already exists`));
  },
  SLOW,
);

test(
  "seed-demo is repeatable and prints working credentials and a fresh key",
  async () => {
    const first = await cli(["seed-demo", "--json"]);
    const second = await cli(["seed-demo", "--json"]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const a = JSON.parse(first.stdout) as DemoSeed;
    const b = JSON.parse(second.stdout) as DemoSeed;
    expect(b.org.id).toBe(a.org.id);
    expect(b.users.map((u) => u.role)).toEqual(["member", "owner", "admin"]);
    for (const user of b.users) {
      await expect(openSession(db, user.email, user.password, 60)).resolves.toMatchObject({
        principal: { user: { role: user.role }, org: { id: b.org.id } },
      });
    }
    await expect(authenticateApiKey(db, b.apiKey.key)).resolves.toMatchObject({ orgId: b.org.id });
    await expect(authenticateApiKey(db, a.apiKey.key)).resolves.toBeNull();
    expect(await db.product.count({ where: { orgId: b.org.id } })).toBe(3);
  },
  SLOW,
);

test(
  "seed-demo prints the member's, the owner's and the platform operator's logins",
  async () => {
    const seeded = await cli(["seed-demo"]);
    expect(seeded.code).toBe(0);
    for (const [role, email, password] of [
      ["member", "member@demo.local", "demo-member-password"],
      ["owner", "owner@demo.local", "demo-owner-password"],
      ["admin", "admin@demo.local", "demo-admin-password"],
    ]) {
      expect(seeded.stdout).toMatch(
        new RegExp(`^ +${role} +${email} +password: ${password} `, "m"),
      );
      await expect(openSession(db, email!, password!, 60)).resolves.toMatchObject({
        principal: { user: { role } },
      });
    }
    expect(seeded.stdout).toMatch(/admin .*platform operator/);
  },
  SLOW,
);
