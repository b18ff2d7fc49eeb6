-- groups.members_count and groups.followers_count equal their rows: kept by triggers in the
-- transaction of every insert and delete, whatever deletes the row (a leave, a removal, a user
-- account deleted with its memberships by cascade).
CREATE OR REPLACE FUNCTION maintain_group_counter() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'group_members' THEN
    IF TG_OP = 'INSERT' THEN
      UPDATE groups SET members_count = members_count + 1 WHERE id = NEW.group_id;
    ELSE
      UPDATE groups SET members_count = members_count - 1 WHERE id = OLD.group_id;
    END IF;
  ELSE
    IF TG_OP = 'INSERT' THEN
      UPDATE groups SET followers_count = followers_count + 1 WHERE id = NEW.group_id;
    ELSE
      UPDATE groups SET followers_count = followers_count - 1 WHERE id = OLD.group_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER group_members_counter AFTER INSERT OR DELETE ON group_members
  FOR EACH ROW EXECUTE FUNCTION maintain_group_counter();
--> statement-breakpoint
CREATE TRIGGER group_follows_counter AFTER INSERT OR DELETE ON group_follows
  FOR EACH ROW EXECUTE FUNCTION maintain_group_counter();
--> statement-breakpoint
-- The total of GET /group without filters, like posts and matches (migration 0001).
INSERT INTO row_counts (table_name, row_count) SELECT 'groups', count(*) FROM groups;
--> statement-breakpoint
CREATE TRIGGER groups_row_count AFTER INSERT OR DELETE ON groups
  FOR EACH ROW EXECUTE FUNCTION maintain_row_count();
--> statement-breakpoint
-- Posts: `group_id` was free text. One that names no group becomes null; the `group` text stays.
UPDATE posts SET group_id = NULL
  WHERE group_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM groups WHERE groups.id::text = posts.group_id);
--> statement-breakpoint
ALTER TABLE posts ALTER COLUMN group_id SET DATA TYPE uuid USING group_id::uuid;
