-- Group names are unique ignoring case and accents (docs/contract/groups.md). `unaccent` is a
-- trusted contrib extension (PostgreSQL 13+: a database owner may create it; PGlite loads it from
-- @electric-sql/pglite/contrib/unaccent). unaccent() itself is only STABLE (its dictionary could
-- change), so an index needs this IMMUTABLE wrapper naming the dictionary explicitly.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION group_name_key(name text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, name)) $$;
