-- A user's name is unique as sabot.FoldName folds it (NFKC, case-folded):
-- "Alice" and "alice" are one name. Names were ASCII letters, digits, '.',
-- '_' and '-' until now, so lower() folds them as FoldName does.
--
-- A store may hold names that differ only by case, registered before this
-- migration. Both accounts are kept and both still log in with their exact
-- spelling: the first registered takes the folded name, each later one a
-- key no name can fold to ('#' and its ID), so that no new name clashes
-- with any of them.
ALTER TABLE users ADD COLUMN name_folded TEXT;
UPDATE users SET name_folded = lower(name);
UPDATE users SET name_folded = name_folded || '#' || CAST(id AS TEXT)
	WHERE id > (SELECT MIN(u.id) FROM users u WHERE lower(u.name) = lower(users.name));
CREATE UNIQUE INDEX users_name_folded ON users (name_folded);
