-- A member's password as we keep it (server/core/crypto.ts hashPassword: pbkdf2-sha256 naming its cost), checked by
-- the signed member login (POST /app/site/users/login). A member moved from MacCMS has none until their first login
-- here verifies their MacCMS hash (legacy_password, 0155) and replaces it with this one in the same transaction.
ALTER TABLE "site_users" ADD COLUMN "password_hash" varchar(255);
