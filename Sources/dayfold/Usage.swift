/// Help texts: what each command does, every flag, an example.
enum Usage {
    /// The commands `main` dispatches (for "did you mean").
    static let commands = ["run", "validate", "inspect", "generate", "shard", "merge", "help", "version"]

    static let main = """
        dayfold — batch pipeline for a coaching platform's daily data.

        Reads an export drop (task events, meal journal, health imports), validates every
        row, builds per-day tables in each person's time zone, and writes adherence facts,
        streaks, risk signals and Progress ranges as CSV reports (and Parquet snapshots).

        USAGE
          dayfold <command> [options]

        COMMANDS
          run        Run a pipeline: read a drop, compute, publish reports atomically.
          validate   Read a drop and print per-file accounting and reject reasons.
          inspect    Print a Parquet snapshot's schema, row groups, codec and first rows.
          generate   Write a deterministic synthetic drop of any size (tests, benchmarks).
          shard      Split a drop by client user into N drops, one run each (Spark, SPEC §13).
          merge      Merge the outputs of every shard's run into a whole run's outputs.
          help       Show help for a command (same as <command> --help).
          version    Print the version (same as --version).

        EXAMPLES
          dayfold run Pipelines/sample.json --as-of 2026-03-31T18:00:00Z
          dayfold validate SampleData/demo --as-of 2026-03-31T18:00:00Z --json

        Exit codes: 0 ok; 1 failed (nothing published); 2 usage or configuration error
        (nothing read or written); 3 published, but rejected rows exceeded
        max_reject_fraction, or --strict and the run had warnings.
        """

    static let run = """
        dayfold run — read a drop, compute the day tables and facts, publish outputs.

        USAGE
          dayfold run [PIPELINE.json] [--input DROP] [--output DIR] [--as-of INSTANT] [--strict]
          dayfold run [PIPELINE.json] ... --as-of-series FROM..TO

        ARGUMENTS
          PIPELINE.json        A pipeline file (see Pipelines/README.md). Optional: flags
                               can give everything; flags override the file. Its
                               relative input/output keys are relative to its folder.
        OPTIONS
          --input DROP         The drop folder (subjects/, tasks/, journal/, health/).
          --output DIR         Where to publish (default Outputs/<pipeline name>): a new
                               folder (its parent must exist), an empty one, or an
                               earlier dayfold output holding nothing else; anything
                               else (a file, a user's folder, the drop or a folder
                               around it, . or /) is refused with exit 2. Written to
                               a temporary sibling .dayfold-*, then renamed into place.
          --as-of INSTANT      The run's as-of instant, e.g. 2026-03-31T18:00:00Z
                               (default: now). Rows after it are ignored; use a fixed
                               value for reproducible, byte-identical outputs.
          --as-of-series FROM..TO
                               Backfill history: besides the outputs as of TO, write
                               DIR/history/<table>/as_of_date=YYYY-MM-DD/part-0.parquet
                               for relationship_days, progress_ranges, risk_signals and
                               streaks at every step from FROM to TO, 24 h apart (each
                               what a run with that --as-of writes as its snapshot).
                               Instead of --as-of; with --max-memory each step is a
                               partitioned run (same bytes).
          --state DIR          Keep what the next run may reuse in DIR (pipeline key
                               state; a folder of its own, outside the drop and the
                               output). Outputs are always byte-identical to a run
                               without it. Reused: the SHA-256 of files whose size and
                               modification time are unchanged; the months of the large
                               snapshots that did not change, copied from the previous
                               outputs; the drop's reading, kept by a run on the same
                               files as the run before and read back instead of the
                               drop while no file changes (about 30 % of the drop's
                               size in DIR); and under --max-memory
                               the partitions whose inputs and as-of are unchanged. A
                               state of another dayfold, pipeline or time-zone database,
                               or a damaged one, means a full run; the manifest's mode,
                               reason and recomputed_users say what happened.
          --verify-inputs      With --state: hash every input anyway, and warn about a
                               file whose content changed behind unchanged metadata.
          --max-memory SIZE    Memory budget, e.g. 512M (pipeline key max_memory): a
                               larger drop is split by client user and merged back
                               (same outputs, more time).
          --presplit K/N       The drop is split K (0…N−1) of N that the export already
                               made by user (each user's rows, subjects included, in
                               one split): run it as a shard, for dayfold merge
                               (SPEC §13). Drops from dayfold shard need no flag.
          --progress MODE      auto|always|never: per-stage progress on stderr
                               (auto: only when stderr is a terminal).
          --debug-tables       Also write every snapshot table as CSV under DIR/debug/.
          --html               Also publish DIR/report/ (pipeline key html): a self-contained
                               HTML report (overview, a page per coach); open
                               DIR/report/index.html in a browser, from the file system.
          --strict             Exit 3 (after publishing) when the run has any warning,
                               failed health import or unread file; warnings are
                               always summarized on stderr.
          --follow-links       Read symbolic links whose target is outside the drop
                               (by default only links inside it are followed).
          -h, --help           Show this help.

        OUTPUTS (in DIR)
          reports/coach_daily_summary.csv, reports/streaks.csv,
          reports/risk_signals.csv, reports/progress_ranges.csv,
          snapshots/{relationship_days,client_days,adherence_events,streaks,
                     risk_signals,progress_ranges}.parquet  (ZSTD)
          with push/: reports/push_delivery_health.csv, reports/push_intent_summary.csv,
          reports/reminder_effectiveness.csv and their snapshots, snapshots/push_deliveries.parquet
          with --as-of-series: history/<table>/as_of_date=YYYY-MM-DD/part-0.parquet
          with --html: report/index.html, report/coach-<id>.html (…-2.html when paged)
          rejects/rejects.csv, manifest.json

        EXAMPLE
          dayfold run Pipelines/sample.json --as-of 2026-03-31T18:00:00Z --output /tmp/out
        """

    static let generate = """
        dayfold generate — write a deterministic synthetic drop in the SPEC layout.

        USAGE
          dayfold generate --clients N --days D --out DIR [--seed S] [--zstd] [--end-date YYYY-MM-DD] [--no-push]

        OPTIONS
          --clients N          Number of clients (one relationship each).
          --days D             Days of history, ending at --end-date (default 2026-03-31).
          --seed S             Seed of the generator (default 1): same seed, same bytes.
          --out DIR            Where to write the drop (must not exist or be empty).
          --zstd               Write .csv.zst files instead of .csv.
          --no-push            Leave out the push exports (push/, notification_preferences.csv).
          -h, --help           Show this help.

        The drop has several time zones across DST changes, weekly schedules,
        offline retries, revisions, late completions, value tasks, health samples
        from two sources, push exports (task reminders, messages, provider codes,
        receipts, revoked tokens) and a small share of bad rows. About 1,400
        clients × 365 days make 1 GB of CSV (about 1,700 with --no-push).

        EXAMPLE
          dayfold generate --clients 200 --days 90 --seed 7 --out /tmp/drop
        """

    static let inspect = """
        dayfold inspect — show what a Parquet snapshot holds.

        USAGE
          dayfold inspect FILE.parquet [--rows N]

        Prints the schema (names, types, nullability), row count, row groups with
        their sizes, the compression codec and the first N rows (default 5).

        EXAMPLE
          dayfold inspect Outputs/sample/snapshots/streaks.parquet --rows 3
        """

    static let validate = """
        dayfold validate — read a drop and account for every row, without writing outputs.

        USAGE
          dayfold validate DROP [--as-of INSTANT] [--json] [--pipeline PIPELINE.json] [--progress MODE]

        ARGUMENTS
          DROP                 The drop folder.
        OPTIONS
          --as-of INSTANT      Rows that happened after it count as ignored (default: now).
          --json               Print one JSON object: {"files":[…],"rejects":[…]}.
          --pipeline FILE      Take self_sources, default_timezone and
                               max_reject_fraction from a pipeline file.
          --progress MODE      auto|always|never: progress on stderr (auto: only
                               when stderr is a terminal).
          --follow-links       Read symbolic links whose target is outside the drop.
          -h, --help           Show this help.

        Every file's rows_read = accepted + duplicate + ignored + rejected.
        Exit code 3 when rejected rows exceed max_reject_fraction (default 0.05).

        EXAMPLE
          dayfold validate SampleData/demo --as-of 2026-03-31T18:00:00Z --json
        """

    static let shard = """
        dayfold shard — split a drop into N self-contained drops by client user (SPEC §13).

        USAGE
          dayfold shard DROP --shards N --out DIR [--follow-links]

        Writes DIR/shard=0 … DIR/shard=N-1 and DIR/manifest.json (each input's SHA-256 and
        its rows per shard). Users tied together by shared ids go to one shard, chosen by
        FNV-1a 64 of the smallest user id of the group modulo N: the same on every machine
        and in every run. Every row lands in exactly one shard; subject files and push
        installations are copied whole into each. DIR must be new or empty. No --as-of:
        where a row goes does not depend on it.

        Then run each shard as an ordinary drop, with one pipeline and one --as-of:
          dayfold run PIPELINE.json --input DIR/shard=K --output OUT-K --as-of T
        and merge:
          dayfold merge OUT-0 … OUT-(N-1) --output OUT
        (Integrations/spark/dayfold_spark.py does all three on Apache Spark.)
        """

    static let merge = """
        dayfold merge — merge the outputs of every shard's run (SPEC §13).

        USAGE
          dayfold merge OUT-0 OUT-1 … --output OUT [--debug-tables] [--strict] [--html]

        OUT gets what `dayfold run` on the whole drop publishes: the same reports,
        snapshots and rejects, byte for byte, and the manifest's accounting and input
        digests. Refused (exit 2, nothing written): outputs of different as-ofs,
        pipelines or dayfold versions, of another drop or sharding, a shard missing or
        given twice. --output follows `dayfold run`'s rules. Exit 3 after publishing,
        as a whole run would: the drop's rejected rows exceed the pipeline's
        max_reject_fraction, or --strict and there are warnings, failed imports or
        unread files (a shard's run judges neither: its share is not the drop's).
        --html (or shards run with the pipeline key html) also publishes
        OUT/report/, as a whole run's.
        """
}
