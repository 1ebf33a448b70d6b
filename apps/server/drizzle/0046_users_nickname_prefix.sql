-- The admin user search ranks the exact nickname first, then the nicknames that start with the term
-- (users/admin-search.queries.ts): `lower(nickname) COLLATE "C" LIKE 'term%' ORDER BY` the same, a range
-- of this index read in its order and stopped at the page. C collation so a LIKE prefix is an index range
-- whatever the database's collation (users_nickname_lower, in the default collation, serves only equality
-- there; the trigram index finds prefix matches unordered, every one of them).
CREATE INDEX "users_nickname_prefix" ON "users" USING btree ((lower("nickname") COLLATE "C"));
