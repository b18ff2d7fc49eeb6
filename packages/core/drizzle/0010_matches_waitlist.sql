CREATE TYPE "public"."match_sport" AS ENUM('FUTEBOL', 'FUTSAL', 'SOCIETY', 'VOLEI', 'VOLEI_DE_PRAIA', 'BASQUETE', 'HANDEBOL', 'TENIS_DE_MESA', 'OUTRO');--> statement-breakpoint
CREATE TABLE "match_waitlist" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "match_waitlist_match_user_unique" UNIQUE("match_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "sport" "match_sport";--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "group_id" uuid;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "team_a_score" integer;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "team_b_score" integer;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "players_a" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "players_b" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "match_waitlist" ADD CONSTRAINT "match_waitlist_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_waitlist" ADD CONSTRAINT "match_waitlist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_waitlist_queue_idx" ON "match_waitlist" USING btree ("match_id","queued_at","id");--> statement-breakpoint
CREATE INDEX "match_waitlist_user_idx" ON "match_waitlist" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_players_user_idx" ON "match_players" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "matches_sport_date_id_idx" ON "matches" USING btree ("sport","match_date","id");--> statement-breakpoint
CREATE INDEX "matches_group_date_id_idx" ON "matches" USING btree ("group_id","match_date","id");--> statement-breakpoint
CREATE INDEX "matches_author_idx" ON "matches" USING btree ("author_id");--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_scores_range" CHECK ("matches"."team_a_score" between 0 and 999 and "matches"."team_b_score" between 0 and 999);--> statement-breakpoint
-- Players per team on the match row, kept in the transaction of every change of match_players,
-- whatever makes it (a subscribe, a switch, a promotion, an account deleted by cascade).
UPDATE "matches" m SET
  "players_a" = (SELECT count(*) FROM "match_players" p WHERE p."match_id" = m."id" AND p."team" = 'A'),
  "players_b" = (SELECT count(*) FROM "match_players" p WHERE p."match_id" = m."id" AND p."team" = 'B');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION maintain_match_team_counts() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE matches SET
      players_a = players_a - (OLD.team = 'A')::int,
      players_b = players_b - (OLD.team = 'B')::int
    WHERE id = OLD.match_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE matches SET
      players_a = players_a + (NEW.team = 'A')::int,
      players_b = players_b + (NEW.team = 'B')::int
    WHERE id = NEW.match_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER match_players_team_counts AFTER INSERT OR DELETE OR UPDATE OF team ON match_players
  FOR EACH ROW EXECUTE FUNCTION maintain_match_team_counts();
--> statement-breakpoint
-- Nobody both plays and waits in one match. A trigger function's query takes a snapshot of its
-- own (READ COMMITTED), after the inserting statement locked the match row, so it sees a row the
-- other table got from a transaction that held that lock before.
CREATE OR REPLACE FUNCTION match_entry_is_single() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'match_players' THEN
    IF EXISTS (SELECT 1 FROM match_waitlist WHERE match_id = NEW.match_id AND user_id = NEW.user_id) THEN
      RAISE EXCEPTION 'already on the waiting list of this match'
        USING ERRCODE = 'unique_violation', CONSTRAINT = 'match_players_user_waiting';
    END IF;
  ELSIF EXISTS (SELECT 1 FROM match_players WHERE match_id = NEW.match_id AND user_id = NEW.user_id) THEN
    RAISE EXCEPTION 'already playing in this match'
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'match_waitlist_user_playing';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER match_players_single_entry BEFORE INSERT ON match_players
  FOR EACH ROW EXECUTE FUNCTION match_entry_is_single();
--> statement-breakpoint
CREATE TRIGGER match_waitlist_single_entry BEFORE INSERT ON match_waitlist
  FOR EACH ROW EXECUTE FUNCTION match_entry_is_single();
