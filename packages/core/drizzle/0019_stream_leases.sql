-- Open live streams as leases shared by every server process: the per-user limit counts these rows.
CREATE TABLE "stream_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stream_leases" ADD CONSTRAINT "stream_leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stream_leases_user_idx" ON "stream_leases" USING btree ("user_id","expires_at");