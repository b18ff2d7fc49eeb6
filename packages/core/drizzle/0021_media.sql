CREATE TABLE "post_media" (
	"post_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "post_media_post_id_media_id_pk" PRIMARY KEY("post_id","media_id"),
	CONSTRAINT "post_media_media_unique" UNIQUE("media_id")
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"owner_id" uuid,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"thumb_width" integer NOT NULL,
	"thumb_height" integer NOT NULL,
	"thumb_bytes" integer NOT NULL,
	"alt" varchar(300),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attached_at" timestamp with time zone,
	"discarded_at" timestamp with time zone,
	CONSTRAINT "media_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_owner_idx" ON "media" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_one_avatar_idx" ON "media" USING btree ("owner_id") WHERE kind = 'avatar' and discarded_at is null;--> statement-breakpoint
CREATE INDEX "media_unattached_idx" ON "media" USING btree ("created_at") WHERE attached_at is null or discarded_at is not null;--> statement-breakpoint
-- A photo taken off its post (PATCH without it, the post deleted, its author's account erased)
-- is discarded in the same transaction: the clean-up job deletes its files within a minute.
CREATE FUNCTION "discard_post_media"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "media" SET "discarded_at" = now() WHERE "id" = OLD."media_id" AND "discarded_at" IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "post_media_discard" AFTER DELETE ON "post_media"
  FOR EACH ROW EXECUTE FUNCTION "discard_post_media"();
