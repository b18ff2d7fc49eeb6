-- The reader's flags (likedByMe / attendingByMe) probe the unique (post_id, user_id) index once per
-- post of a page, a quarter of GET /post's statement. Each post keeps a 64-bit filter of who ever
-- liked it / attended it: the bit post_filter_bit(user) of every such user, set by the UPDATE that
-- moves the counter and never cleared. A clear bit means no row, so the probe is skipped; a set bit
-- (the reader's, a stale one, or another user's sharing it) costs the probe as before: the answer
-- stays exact (feed/records.ts). The bit is the id's last byte mod 64 (random in a v4 or v7
-- UUID), not a hash: uuid_hash's value depends on the machine's byte order, and a filter must
-- mean the same on every server the database is ever restored to.
CREATE OR REPLACE FUNCTION post_filter_bit(user_id uuid) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT 1::bigint << (get_byte(uuid_send(user_id), 15) & 63) $$;
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "likers_filter" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "attendees_filter" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The likes and attendances already there.
UPDATE "posts" SET "likers_filter" = (
  SELECT coalesce(bit_or(post_filter_bit(l."user_id")), 0) FROM "post_likes" l WHERE l."post_id" = "posts"."id"
) WHERE "likes_count" > 0;--> statement-breakpoint
UPDATE "posts" SET "attendees_filter" = (
  SELECT coalesce(bit_or(post_filter_bit(a."user_id")), 0) FROM "post_attendances" a WHERE a."post_id" = "posts"."id"
) WHERE "attendances_count" > 0;
