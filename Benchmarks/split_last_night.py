#!/usr/bin/env python3
"""Splits a generated drop into the drop as it stood before a night and that
night's files, for the nightly benchmark (Benchmarks/incremental.sh):

    split_last_night.py DROP BEFORE NIGHT_FILES DATE

BEFORE gets every file of DROP without the rows dated DATE (YYYY-MM-DD) or
later; NIGHT_FILES gets those rows, one file per folder of DROP they came from,
named `<prefix>-night.csv` so that it sorts after the folder's other files
(the order in which a nightly export adds them). A row's date is the first
ten characters of its kind's date or instant column, as written (its local
date). Rows are copied byte for byte; files of kinds without a date column
(subjects/, installations) and compressed files go whole to BEFORE.

A benchmark helper, never part of the product.
"""
import csv
import io
import os
import sys

# The column a row's date is read from, by the header names a kind has.
DATE_COLUMNS = [
    "local_date",  # instances, workout logs, info cards
    "occurred_at",  # status events
    "recorded_at",  # value entries
    "cooked_at",  # journal
    "start",  # health
    "scheduled_for",  # push intents
    "sent_at",  # push deliveries
    "received_at",  # push receipts
]


def records(handle):
    """Yields each CSV record's raw text (with its line ending), whole even
    when a quoted field holds a line break."""
    pending = ""
    for line in handle:
        pending += line
        if pending.count('"') % 2 == 0:
            yield pending
            pending = ""
    if pending:
        yield pending


def split_file(source, before_path, night_rows, date):
    with open(source, encoding="utf-8", newline="") as handle:
        rows = records(handle)
        header = next(rows, None)
        if header is None:
            return False
        names = next(csv.reader(io.StringIO(header)))
        column = next((names.index(name) for name in DATE_COLUMNS if name in names), None)
        with open(before_path, "w", encoding="utf-8", newline="") as before:
            before.write(header)
            for raw in rows:
                fields = next(csv.reader(io.StringIO(raw)), [])
                if column is not None and column < len(fields) and fields[column][:10] >= date:
                    night_rows.setdefault(header, []).append(raw)
                else:
                    before.write(raw)
    return column is not None


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    drop, before, night, date = sys.argv[1:]
    for folder, _, files in os.walk(drop):
        relative = os.path.relpath(folder, drop)
        os.makedirs(os.path.join(before, relative), exist_ok=True)
        night_rows = {}
        csv_files = sorted(name for name in files if name.endswith(".csv"))
        for name in sorted(files):
            source = os.path.join(folder, name)
            target = os.path.join(before, relative, name)
            if name.endswith(".csv"):
                split_file(source, target, night_rows, date)
            else:
                with open(source, "rb") as src, open(target, "wb") as dst:
                    dst.write(src.read())
        if not night_rows:
            continue
        prefix = csv_files[0].split("-")[0].removesuffix(".csv")
        os.makedirs(os.path.join(night, relative), exist_ok=True)
        # One night file per folder: rows of files with another header would
        # need a file of their own (the generator writes one header per kind).
        for index, (header, rows) in enumerate(night_rows.items()):
            suffix = "" if index == 0 else f"-{index}"
            with open(os.path.join(night, relative, f"{prefix}-night{suffix}.csv"), "w", encoding="utf-8",
                      newline="") as out:
                out.write(header)
                out.writelines(rows)


if __name__ == "__main__":
    main()
