-- Full-text search of posts (docs/contract/feed.md, Listing): Portuguese stemming, accents and case
-- ignored. `unaccent` comes from migration 0005 (PGlite loads it from its contrib). unaccent() and
-- to_tsvector(text) are only STABLE; a stored generated column and an index need IMMUTABLE
-- functions, so both name their dictionary and configuration explicitly.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_search_document(title text, content text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT setweight(to_tsvector('pg_catalog.portuguese'::regconfig, public.unaccent('public.unaccent'::regdictionary, coalesce(title, ''))), 'A')
            || setweight(to_tsvector('pg_catalog.portuguese'::regconfig, public.unaccent('public.unaccent'::regdictionary, coalesce(content, ''))), 'B') $$;
--> statement-breakpoint
-- The query side: web-search syntax ("…", or, -), the same normalisation as the document.
CREATE OR REPLACE FUNCTION post_search_query(q text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT websearch_to_tsquery('pg_catalog.portuguese'::regconfig, public.unaccent('public.unaccent'::regdictionary, q)) $$;
--> statement-breakpoint
CREATE TYPE "public"."moderation_action" AS ENUM('OCULTAR', 'RESTAURAR', 'DESCARTAR');--> statement-breakpoint
CREATE TYPE "public"."moderation_target" AS ENUM('POST', 'COMENTARIO');--> statement-breakpoint
CREATE TABLE "comment_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"comment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"reason" varchar(500) NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_reports_comment_user_unique" UNIQUE("comment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "moderation_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"target_type" "moderation_target" NOT NULL,
	"target_id" uuid NOT NULL,
	"action" "moderation_action" NOT NULL,
	"admin_id" uuid,
	"reports_closed" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "posts_author_idx";--> statement-breakpoint
DROP INDEX "posts_group_idx";--> statement-breakpoint
ALTER TABLE "post_comments" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_comments" ADD COLUMN "kept_visible" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "post_comments" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_reports" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "kept_visible" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (post_search_document(title, content)) STORED;--> statement-breakpoint
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_comment_id_post_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."post_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_decisions_target_idx" ON "moderation_decisions" USING btree ("target_type","target_id","created_at");--> statement-breakpoint
CREATE INDEX "post_attendances_post_created_idx" ON "post_attendances" USING btree ("post_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "post_comments_author_idx" ON "post_comments" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "post_comments_hidden_idx" ON "post_comments" USING btree ("post_id","author_id") WHERE "post_comments"."hidden_at" is not null;--> statement-breakpoint
CREATE INDEX "post_likes_post_created_idx" ON "post_likes" USING btree ("post_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "post_reports_post_created_idx" ON "post_reports" USING btree ("post_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_author_created_idx" ON "posts" USING btree ("author_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_group_created_idx" ON "posts" USING btree ("group_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_event_date_idx" ON "posts" USING btree ("event_date","id") WHERE "posts"."type" = 'EVENT';--> statement-breakpoint
CREATE INDEX "posts_search_idx" ON "posts" USING gin ("search");--> statement-breakpoint
CREATE INDEX "posts_hidden_idx" ON "posts" USING btree ("author_id") WHERE "posts"."hidden_at" is not null;