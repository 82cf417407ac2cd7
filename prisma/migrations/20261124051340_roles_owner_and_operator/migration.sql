-- Until now `admin` was an org's administrator, who could also reach /api/system and act on
-- every org's queues. `admin` now means the platform operator (created by the CLI only), and
-- an org's administrator is an `owner`: every existing admin becomes an owner, so nobody gains
-- or keeps the cross-org system view by this change.
--
-- The type is rebuilt rather than extended with ADD VALUE: a value added that way cannot be used
-- in the transaction that adds it, and the users must be converted in the same transaction.
ALTER TYPE "Role" RENAME TO "Role_before_owner";
CREATE TYPE "Role" AS ENUM ('member', 'owner', 'admin');
ALTER TABLE "users" ALTER COLUMN "role" DROP DEFAULT;
ALTER TABLE "users" ALTER COLUMN "role" TYPE "Role" USING ("role"::text::"Role");
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'member';
DROP TYPE "Role_before_owner";

-- An UPDATE (not the type change's rewrite) so that the users trigger announces it and every
-- gateway drops the sessions it cached with the old role.
UPDATE "users" SET "role" = 'owner' WHERE "role" = 'admin';
