ALTER TABLE "users" ADD COLUMN "sessions_revoked_at" timestamp with time zone;--> statement-breakpoint
-- The auth caches of every server process (packages/core/src/auth/actor-cache.ts) forget an
-- account when what authentication reads of it changes or it is deleted, whoever changes it
-- (a service, another branch's code, an operator's SQL). Delivered when the change commits.
CREATE FUNCTION "notify_account_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('campus_account', json_build_object('key', COALESCE(NEW.id, OLD.id))::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_account_change_notify" AFTER UPDATE OF "status", "perfil", "nickname", "sessions_revoked_at" ON "users"
  FOR EACH ROW WHEN (
    OLD."status" IS DISTINCT FROM NEW."status" OR OLD."perfil" IS DISTINCT FROM NEW."perfil"
    OR OLD."nickname" IS DISTINCT FROM NEW."nickname"
    OR OLD."sessions_revoked_at" IS DISTINCT FROM NEW."sessions_revoked_at"
  ) EXECUTE FUNCTION "notify_account_change"();
--> statement-breakpoint
CREATE TRIGGER "users_account_delete_notify" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_account_change"();
