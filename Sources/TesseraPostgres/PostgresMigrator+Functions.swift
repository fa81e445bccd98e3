import Foundation

/// The migrations that add functions and triggers (docs/cluster.md, "What limits a deployment"), kept apart from
/// the tables' for length; numbered and applied with the others (`PostgresMigrator.migrations`).
extension PostgresMigrator {
    /// How long a prefix `library_prefix` counts (migration 13); a longer query word is counted per search.
    static let libraryPrefixLength = 32

    static let functions: [Migration] = [
        // docs/cluster.md, "What limits a deployment": an add at either end of a gallery (the usual one) as one
        // call, so the gallery's row stays locked for one round trip and the commit, not four. Each statement
        // of a function reads with a snapshot of its own, so the count made after the lock sees every add the
        // lock waited for. `between`: nothing written, the row locked; the caller places the item itself.
        // The event's text is the change without its revision and index, which only this call knows.
        Migration(
            version: 12, name: "add in one call",
            sql: [
                // What a gallery event's notification says (`PostgresGalleryEvents.Notified` reads it): `id
                // gallery change` when the change is at most `notify_limit` bytes, else `id` alone. Every
                // writer of events notifies through it.
                """
                CREATE FUNCTION gallery_event_payload(id bigint, gallery text, change text, notify_limit integer)
                RETURNS text LANGUAGE sql IMMUTABLE AS $$
                    SELECT CASE WHEN octet_length(change) <= notify_limit
                        THEN id || ' ' || gallery || ' ' || change ELSE id::text END
                $$
                """,
                """
                CREATE FUNCTION gallery_add_item(
                    p_added gallery_item, p_if_revision bigint, p_index bigint, p_time double precision,
                    p_change text, p_channel text, p_notify_limit integer, p_gap bigint,
                    OUT outcome text, OUT new_revision bigint, OUT placed bigint, OUT event_id bigint)
                LANGUAGE plpgsql AS $$
                DECLARE
                    v_deleted double precision;
                    v_count bigint;
                    v_first bigint;
                    v_last bigint;
                    v_change text;
                BEGIN
                    SELECT g.revision, g.deleted_at INTO new_revision, v_deleted
                    FROM gallery g WHERE g.id = (p_added).gallery_id FOR UPDATE;
                    IF NOT FOUND THEN outcome := 'not_found'; RETURN; END IF;
                    IF p_if_revision IS NOT NULL AND p_if_revision <> new_revision THEN
                        outcome := 'revision_mismatch'; RETURN;
                    END IF;
                    IF v_deleted IS NOT NULL THEN outcome := 'deleted'; RETURN; END IF;
                    SELECT count(*), coalesce(min(i.position), 0), coalesce(max(i.position), 0)
                    INTO v_count, v_first, v_last
                    FROM gallery_item i WHERE i.gallery_id = (p_added).gallery_id;
                    placed := least(coalesce(p_index, v_count), v_count);
                    IF placed = v_count THEN
                        p_added.position := v_last + p_gap;
                    ELSIF placed = 0 THEN
                        p_added.position := v_first - p_gap;
                    ELSE
                        outcome := 'between'; RETURN;
                    END IF;
                    INSERT INTO gallery_item SELECT (p_added).*;
                    new_revision := new_revision + 1;
                    UPDATE gallery g SET revision = new_revision, updated_at = p_time WHERE g.id = (p_added).gallery_id;
                    v_change := '{"revision":' || new_revision || ',"index":' || placed || ',' || substr(p_change, 2);
                    INSERT INTO gallery_event (gallery_id, revision, change)
                    VALUES ((p_added).gallery_id, new_revision, v_change)
                    RETURNING id INTO event_id;
                    PERFORM pg_notify(
                        p_channel, gallery_event_payload(event_id, (p_added).gallery_id, v_change, p_notify_limit));
                    outcome := 'added';
                END
                $$
                """,
            ]),
        // docs/cluster.md, "What limits a deployment": the exact total of a one-word search without filters, read
        // instead of counted. For every root and every prefix of every word of its photos (up to
        // `libraryPrefixLength` characters), the photos holding a word that starts with it: what `'prefix':*`
        // matches. Kept by statement triggers in the transaction of each write (old rows out, new rows in,
        // prefixes in one order so two writers cannot deadlock), then filled from the photos already indexed.
        Migration(
            version: 13, name: "library prefix counts",
            sql: [
                """
                CREATE TABLE library_prefix (
                    prefix text NOT NULL,
                    root text NOT NULL,
                    photos integer NOT NULL,
                    PRIMARY KEY (prefix, root))
                """,
                """
                CREATE FUNCTION library_prefixes(words tsvector) RETURNS SETOF text
                LANGUAGE sql IMMUTABLE STRICT AS $$
                    SELECT DISTINCT left(word, length)
                    FROM unnest(tsvector_to_array(words)) AS word,
                        generate_series(1, least(char_length(word), \(libraryPrefixLength))) AS length
                $$
                """,
                """
                CREATE FUNCTION library_prefix_count() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        INSERT INTO library_prefix AS counted (prefix, root, photos)
                        SELECT p, r.root, count(*) FROM new_rows r, library_prefixes(r.search) p
                        GROUP BY 1, 2 ORDER BY 1, 2
                        ON CONFLICT (prefix, root) DO UPDATE SET photos = counted.photos + excluded.photos;
                    ELSIF TG_OP = 'DELETE' THEN
                        INSERT INTO library_prefix AS counted (prefix, root, photos)
                        SELECT p, r.root, -count(*) FROM old_rows r, library_prefixes(r.search) p
                        GROUP BY 1, 2 ORDER BY 1, 2
                        ON CONFLICT (prefix, root) DO UPDATE SET photos = counted.photos + excluded.photos;
                    ELSE
                        INSERT INTO library_prefix AS counted (prefix, root, photos)
                        SELECT p, root, sum(change) FROM (
                            SELECT p, r.root, -1 AS change FROM old_rows r, library_prefixes(r.search) p
                            UNION ALL
                            SELECT p, r.root, 1 FROM new_rows r, library_prefixes(r.search) p) AS changes
                        GROUP BY 1, 2 HAVING sum(change) <> 0 ORDER BY 1, 2
                        ON CONFLICT (prefix, root) DO UPDATE SET photos = counted.photos + excluded.photos;
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER library_prefix_insert AFTER INSERT ON library_photo
                REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION library_prefix_count()
                """,
                """
                CREATE TRIGGER library_prefix_update AFTER UPDATE ON library_photo
                REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                FOR EACH STATEMENT EXECUTE FUNCTION library_prefix_count()
                """,
                """
                CREATE TRIGGER library_prefix_delete AFTER DELETE ON library_photo
                REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION library_prefix_count()
                """,
                """
                INSERT INTO library_prefix (prefix, root, photos)
                SELECT p, r.root, count(*) FROM library_photo r, library_prefixes(r.search) p
                GROUP BY 1, 2 ORDER BY 1, 2
                """,
                // New words go straight into the GIN index, not a pending list every search reads until a vacuum
                // merges it (after an indexer's batches the planner then preferred reading the whole table:
                // 50 ms a search); the indexer's writes are slower, its reads of the files much slower still.
                "ALTER INDEX library_photo_search SET (fastupdate = off)",
                "SELECT gin_clean_pending_list('library_photo_search')",
            ]),
    ]
}
