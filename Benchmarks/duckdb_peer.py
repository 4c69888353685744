#!/usr/bin/env python3
"""DuckDB peer for Benchmarks/run.sh: a subset of `dayfold run`'s work, in SQL.

    python3 Benchmarks/duckdb_peer.py DROP OUT_DIR

Reads the same CSV files (every file of a kind, explicit columns, no sniffing)
and computes:
  1. relationship days: for each task, its latest status (events deduplicated by
     id; rows without an offset or with an unknown status dropped), then the
     COMPLETED / SKIPPED / MISSED counts per relationship_id and local_date;
  2. client days, journal: the latest revision of each entry_id, not deleted,
     nutrients × portion, summed per user and local date of cooked_at (in the
     user's zone from timezones.csv, its latest row; UTC when none);
  3. client days, health: value sums per user, local date of start and type;
  4. push deliveries (SPEC §11, when the drop has push/): deliveries
     deduplicated by id (the last row), joined with their intent (the last
     row per id), counted per UTC day (of sent_at, else scheduled_for) ×
     provider × category, with how many were sent and how many DELIVERED.
It writes the three tables as CSV into OUT_DIR and prints one JSON line with
their row counts and checksums, so the work cannot be skipped.

Threads: DUCKDB_THREADS (default 2, the benchmark machine's core count).
"""
import glob
import json
import os
import sys

import duckdb

OFFSET_RE = r"(Z|[+-][0-9]{2}(:?[0-9]{2})?)$"


def files(drop, folder):
    """The kind's files in file order (plain and .zst, like dayfold)."""
    names = glob.glob(os.path.join(drop, folder, "*.csv")) + glob.glob(os.path.join(drop, folder, "*.csv.zst"))
    return sorted(names, key=lambda p: p.encode())


def read_csv(paths, columns):
    listed = ", ".join("'" + p.replace("'", "''") + "'" for p in paths)
    cols = ", ".join(f"'{name}': '{kind}'" for name, kind in columns)
    return (
        f"read_csv([{listed}], header = true, auto_detect = false, delim = ',', quote = '\"', escape = '\"', "
        f"columns = {{{cols}}})"
    )


def instant(column):
    """An instant column as TIMESTAMPTZ; every spelling the drop uses."""
    return f"coalesce(try_cast({column} AS TIMESTAMPTZ), try_strptime({column}, '%Y-%m-%d %H:%M:%S %z'))"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    drop, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"SET threads = {int(os.environ.get('DUCKDB_THREADS', '2'))}")
    V = "VARCHAR"

    timezones = files(drop, "subjects")
    timezones = [p for p in timezones if os.path.basename(p).startswith("timezones.csv")]
    if timezones:
        con.execute(f"""
            CREATE TEMP TABLE zones AS
            SELECT user_id, arg_max(timezone, {instant('effective_from')}) AS zone
            FROM {read_csv(timezones, [('user_id', V), ('timezone', V), ('effective_from', V), ('changed_by', V)])}
            GROUP BY user_id""")
    else:
        con.execute("CREATE TEMP TABLE zones (user_id VARCHAR, zone VARCHAR)")

    results = {}
    instances = files(drop, "tasks/instances")
    events = files(drop, "tasks/status_events")
    if instances and events:
        instance_columns = [(c, V) for c in (
            "id,workspace_id,relationship_id,local_date,timezone,task_kind,source_context,source_type,source_id,"
            "source_revision,source_child_key,source_key,status,priority,sort_key,due_at,snapshot,action_schema,"
            "generated_at,completed_at,canceled_at,superseded_at").split(",")]
        event_columns = [(c, V) for c in (
            "id,daily_task_instance_id,relationship_id,from_status,to_status,reason,note,actor_user_id,device_id,"
            "client_operation_id,metadata,occurred_at").split(",")]
        con.execute(f"""
            CREATE TEMP TABLE relationship_days AS
            WITH task AS (
                SELECT id, any_value(relationship_id) AS relationship_id, any_value(local_date) AS local_date
                FROM {read_csv(instances, instance_columns)}
                GROUP BY id),
            event AS (
                SELECT id, any_value(daily_task_instance_id) AS task_id, any_value(to_status) AS to_status,
                       any_value({instant('occurred_at')}) AS occurred_at
                FROM {read_csv(events, event_columns)}
                WHERE regexp_matches(occurred_at, '{OFFSET_RE}')
                  AND to_status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'SKIPPED', 'MISSED', 'CANCELED', 'SUPERSEDED')
                GROUP BY id),
            latest AS (
                SELECT task_id, arg_max(to_status, occurred_at) AS status FROM event GROUP BY task_id)
            SELECT t.relationship_id, CAST(t.local_date AS DATE) AS local_date,
                   count(*) FILTER (WHERE status = 'COMPLETED') AS completed,
                   count(*) FILTER (WHERE status = 'SKIPPED') AS skipped,
                   count(*) FILTER (WHERE status = 'MISSED') AS missed
            FROM latest JOIN task t ON t.id = latest.task_id
            GROUP BY ALL""")
        results["relationship_days"] = "sum(completed) + 2 * sum(skipped) + 3 * sum(missed)"

    journal = [p for p in files(drop, "journal")]
    if journal:
        journal_columns = [
            ("entry_id", V), ("user_id", V), ("cooked_at", V), ("revision", "BIGINT"), ("portion", "DOUBLE"),
            ("energy_kcal", "DOUBLE"), ("protein_g", "DOUBLE"), ("carbs_g", "DOUBLE"), ("fat_g", "DOUBLE"),
            ("deleted", V), ("recipe_id", V), ("title", V)]
        con.execute(f"""
            CREATE TEMP TABLE journal_days AS
            WITH latest AS (
                SELECT entry_id,
                       arg_max({{'user_id': user_id, 'cooked_at': {instant('cooked_at')},
                                 'portion': coalesce(portion, 1.0), 'energy_kcal': energy_kcal,
                                 'protein_g': protein_g, 'carbs_g': carbs_g, 'fat_g': fat_g,
                                 'deleted': lower(coalesce(deleted, 'f')) IN ('t', 'true', '1')}}, revision) AS e
                FROM {read_csv(journal, journal_columns)}
                WHERE regexp_matches(cooked_at, '{OFFSET_RE}')
                GROUP BY entry_id)
            SELECT e.user_id AS user_id,
                   CAST(e.cooked_at AT TIME ZONE coalesce(z.zone, 'UTC') AS DATE) AS local_date,
                   count(*) AS entries,
                   sum(e.energy_kcal * e.portion) AS energy_kcal, sum(e.protein_g * e.portion) AS protein_g,
                   sum(e.carbs_g * e.portion) AS carbs_g, sum(e.fat_g * e.portion) AS fat_g
            FROM latest LEFT JOIN zones z ON z.user_id = e.user_id
            WHERE NOT e.deleted
            GROUP BY ALL""")
        results["journal_days"] = "sum(entries) + coalesce(sum(energy_kcal), 0)"

    health = files(drop, "health")
    if health:
        health_columns = [(c, V) for c in "user_id,type,value,unit,start,end,source_name,source_bundle_id,device".split(",")]
        con.execute(f"""
            CREATE TEMP TABLE health_days AS
            SELECT h.user_id,
                   CAST({instant('h.start')} AT TIME ZONE coalesce(z.zone, 'UTC') AS DATE) AS local_date,
                   h.type, count(*) AS samples, sum(try_cast(h.value AS DOUBLE)) AS total
            FROM {read_csv(health, health_columns)} h LEFT JOIN zones z ON z.user_id = h.user_id
            WHERE regexp_matches(h.start, '{OFFSET_RE}')
            GROUP BY ALL""")
        results["health_days"] = "sum(samples) + coalesce(sum(total), 0)"

    deliveries = files(drop, "push/deliveries")
    intents = files(drop, "push/intents")
    if deliveries and intents:
        def header(path):
            import subprocess
            if path.endswith(".zst"):
                line = subprocess.run(["zstd", "-dc", path], capture_output=True).stdout.split(b"\n", 1)[0]
            else:
                with open(path, "rb") as handle:
                    line = handle.readline()
            return line.decode("utf-8-sig").strip().split(",")
        con.execute(f"""
            CREATE TEMP TABLE push_days AS
            WITH delivery AS (
                SELECT id, last(intent_id) AS intent_id, last(provider) AS provider, last(status) AS status,
                       last({instant('sent_at')}) AS sent_at
                FROM {read_csv(deliveries, [(c, V) for c in header(deliveries[0])])}
                WHERE provider IN ('EXPO', 'APNS', 'FCM')
                GROUP BY id),
            intent AS (
                SELECT id, last(category) AS category, last({instant('scheduled_for')}) AS scheduled_for
                FROM {read_csv(intents, [(c, V) for c in header(intents[0])])}
                GROUP BY id)
            SELECT CAST(coalesce(d.sent_at, i.scheduled_for) AT TIME ZONE 'UTC' AS DATE) AS day, d.provider,
                   i.category, count(*) AS deliveries, count(d.sent_at) AS sent,
                   count(*) FILTER (WHERE d.status = 'DELIVERED') AS delivered
            FROM delivery d JOIN intent i ON i.id = d.intent_id
            GROUP BY ALL""")
        results["push_days"] = "sum(deliveries) + 2 * sum(sent) + 3 * sum(delivered)"

    report = {}
    for table, checksum in results.items():
        con.execute(f"COPY (SELECT * FROM {table} ORDER BY ALL) TO '{os.path.join(out, table + '.csv')}' (HEADER)")
        rows, check = con.execute(f"SELECT count(*), {checksum} FROM {table}").fetchone()
        report[table] = {"rows": rows, "checksum": float(check or 0)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
