-- The reader's flags (likedByMe / attendingByMe) without a subquery in the page's statement.
-- PostgreSQL initialises every subplan of a statement at each execution, run or not: the two
-- probes of the unique (post_id, user_id) indexes cost GET /post's statement about 5% of its
-- speed beyond the two columns, even where the filters of 0014 skip them (bench/ feed-reader).
-- Each post now keeps, exactly,
-- who likes it and who attends it while they are at most 32 (READER_SET_MAX, core feed/locks.ts),
-- and null when they are more; the UPDATE that moves the counter keeps the set. A flag is then
-- `reader = any(set)`, and only a post with more than 32 calls post_liked_by / post_attended_by,
-- functions (not inlined: their body has a subquery) that the executor only sets up when called.
-- STORAGE MAIN: a long post's content and search document leave the row before these do, so
-- reading a flag never fetches a TOAST value.
ALTER TABLE "posts" ADD COLUMN "likers" uuid[] DEFAULT '{}'::uuid[];--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "attendees" uuid[] DEFAULT '{}'::uuid[];--> statement-breakpoint
ALTER TABLE "posts" ALTER COLUMN "likers" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "posts" ALTER COLUMN "attendees" SET STORAGE MAIN;--> statement-breakpoint
-- The likes and attendances already there.
UPDATE "posts" SET "likers" = CASE WHEN "likes_count" <= 32 THEN (
  SELECT coalesce(array_agg(l."user_id"), '{}') FROM "post_likes" l WHERE l."post_id" = "posts"."id"
) END WHERE "likes_count" > 0;--> statement-breakpoint
UPDATE "posts" SET "attendees" = CASE WHEN "attendances_count" <= 32 THEN (
  SELECT coalesce(array_agg(a."user_id"), '{}') FROM "post_attendances" a WHERE a."post_id" = "posts"."id"
) END WHERE "attendances_count" > 0;--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_liked_by(post uuid, reader uuid) RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = post AND l.user_id = reader) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_attended_by(post uuid, reader uuid) RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT EXISTS (SELECT 1 FROM post_attendances a WHERE a.post_id = post AND a.user_id = reader) $$;
