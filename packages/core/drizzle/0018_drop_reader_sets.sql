-- The reader's flags (likedByMe / attendingByMe) are a probe of the unique (post_id, user_id)
-- index again. The per-post filters (0014) and exact sets (0016) that stood in for the probe
-- gained under 5% of GET /post over HTTP, against about a fifth of the feed's code to keep them
-- exact (docs/decisions.md, "Complexity that must pay"): they and their functions go.
ALTER TABLE "posts" DROP COLUMN "likers_filter";--> statement-breakpoint
ALTER TABLE "posts" DROP COLUMN "attendees_filter";--> statement-breakpoint
ALTER TABLE "posts" DROP COLUMN "likers";--> statement-breakpoint
ALTER TABLE "posts" DROP COLUMN "attendees";--> statement-breakpoint
DROP FUNCTION IF EXISTS post_liked_by(uuid, uuid);--> statement-breakpoint
DROP FUNCTION IF EXISTS post_attended_by(uuid, uuid);--> statement-breakpoint
DROP FUNCTION IF EXISTS post_filter_bit(uuid);
