-- AlterTable
ALTER TABLE "User" ADD COLUMN     "passwordSetById" UUID;

-- Users made before this column: who last set each password, from the audit log. The newest entry per
-- user among "user.create" and "user.resetPassword" (lib/users/service.ts; targetType "user", matched in
-- any case since other entries wrote "User"), and its actor: an admin from the console, or null from the
-- command line (cliActor), which stays null. A password reset by its owner (the users page allowed
-- one's own before it was refused) is known to nobody else: null too. A targetId that is not a uuid is
-- never cast. No user could change their own password before this release, so no later entry clears it.
WITH "setter" AS (
  SELECT DISTINCT ON ("userId") "userId", "actorUserId"
  FROM (
    SELECT CASE
             WHEN "targetId" ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
               THEN "targetId"::uuid
           END AS "userId",
           "actorUserId", "at", "id"
    FROM "AuditLog"
    WHERE "action" IN ('user.create', 'user.resetPassword') AND lower("targetType") = 'user'
  ) AS "entry"
  WHERE "userId" IS NOT NULL
  ORDER BY "userId", "at" DESC, "id" DESC
)
UPDATE "User" AS u
SET "passwordSetById" = s."actorUserId"
FROM "setter" AS s
WHERE u."id" = s."userId" AND s."actorUserId" IS NOT NULL AND s."actorUserId" <> u."id";
