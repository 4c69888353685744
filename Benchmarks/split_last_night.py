#!/usr/bin/env python3
"""Splits a generated drop into the drop as it stood before a night and that
night's files, for the nightly benchmark (Benchmarks/incremental.sh):

    split_last_night.py DROP BEFORE NIGHT_FILES CUTOFF

CUTOFF is an instant (2026-03-31T12:00:00Z): the drop as an export cut at
that instant holds it. A row goes to NIGHT_FILES when the instant it was
made at is after CUTOFF: an instance's `generated_at`, an event's
`occurred_at`, a value entry's `recorded_at`, a log's `completed_at`
(else `updated_at`, `started_at`), a journal revision's `cooked_at`, a
health sample's `end` (else `start`), an intent's `created_at`, a
delivery's `sent_at` (else `failed_at`, else its intent's `created_at`), a receipt's `received_at`; a card,
which has none, when its `local_date` is on or after CUTOFF's date.

CUTOFF may also be a date (YYYY-MM-DD): the night's rows are then those
dated on or after it, a row's date being the first ten characters of its
kind's date or instant column as written (its local date, or its UTC date
when written in UTC). That split leaves rows in BEFORE that an export cut
at any one instant would not hold together (an event written in UTC on
the eve of its task's local date, the task in the night's files).

NIGHT_FILES gets one file per folder of DROP the rows came from, named
`<prefix>-night.csv` so that it sorts after the folder's other files (the
order in which a nightly export adds them). Rows are copied byte for byte;
files of kinds without a date column (subjects/, installations) and
compressed files go whole to BEFORE.

A benchmark helper, never part of the product.
"""
import csv
import io
import os
import sys
from datetime import datetime, timezone

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


# The instants a row was made at, by the header names a kind has, in order
# of preference (the first present and not empty is used).
MADE_AT = [
    ("generated_at",),  # instances
    ("occurred_at",),  # status events
    ("recorded_at",),  # value entries
    ("completed_at", "updated_at", "started_at"),  # workout logs
    ("cooked_at",),  # journal
    ("end", "start"),  # health
    ("created_at",),  # push intents
    ("sent_at", "failed_at"),  # push deliveries
    ("received_at",),  # push receipts
]


def parse_instant(text):
    """An input instant (`2026-03-31T12:00:00Z`, `2026-03-31 12:00:00 +0200`,
    `2026-03-31 12:00:00+00`) in UTC, or None."""
    text = text.strip()
    if not text:
        return None
    text = text.replace(" +", "+").replace(" -", "-").replace("Z", "+00:00")
    if len(text) > 10 and text[10] == " ":
        text = text[:10] + "T" + text[11:]
    if text[-3] in "+-":
        text += ":00"
    elif text[-5] in "+-" and text[-3] != ":":
        text = text[:-2] + ":" + text[-2:]
    try:
        return datetime.fromisoformat(text).astimezone(timezone.utc)
    except ValueError:
        return None


# Intent id → its created_at, for deliveries not yet sent nor failed (made
# with their intent). Filled by `main` before the deliveries are split.
INTENT_CREATED = {}


def night_test(names, cutoff):
    """For a header: a function telling whether a row (its fields) is the
    night's, or None when the kind has no column to tell by."""
    if isinstance(cutoff, str):
        column = next((names.index(name) for name in DATE_COLUMNS if name in names), None)
        if column is None:
            return None
        return lambda fields: column < len(fields) and fields[column][:10] >= cutoff
    for choices in MADE_AT:
        columns = [names.index(name) for name in choices if name in names]
        if len(columns) == len(choices):
            intent = names.index("intent_id") if "intent_id" in names else None

            def made_after(fields, columns=columns, intent=intent):
                for column in columns:
                    made = parse_instant(fields[column]) if column < len(fields) else None
                    if made is not None:
                        return made > cutoff
                if intent is not None and intent < len(fields):
                    made = INTENT_CREATED.get(fields[intent])
                    return made is not None and made > cutoff
                return False
            return made_after
    if "local_date" in names:
        column = names.index("local_date")
        day = cutoff.date().isoformat()
        return lambda fields: column < len(fields) and fields[column][:10] >= day
    return None


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


def split_file(source, before_path, night_rows, cutoff):
    with open(source, encoding="utf-8", newline="") as handle:
        rows = records(handle)
        header = next(rows, None)
        if header is None:
            return False
        names = next(csv.reader(io.StringIO(header)))
        is_night = night_test(names, cutoff)
        with open(before_path, "w", encoding="utf-8", newline="") as before:
            before.write(header)
            for raw in rows:
                fields = next(csv.reader(io.StringIO(raw)), [])
                if is_night is not None and is_night(fields):
                    night_rows.setdefault(header, []).append(raw)
                else:
                    before.write(raw)
    return is_night is not None


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    drop, before, night, cutoff = sys.argv[1:]
    if len(cutoff) > 10:
        cutoff = parse_instant(cutoff)
        if cutoff is None:
            sys.exit(f"not an instant: {sys.argv[4]}")
    if not isinstance(cutoff, str):
        for folder, _, files in os.walk(os.path.join(drop, "push", "intents")):
            for name in sorted(files):
                if name.endswith(".csv"):
                    with open(os.path.join(folder, name), encoding="utf-8", newline="") as handle:
                        for row in csv.DictReader(handle):
                            made = parse_instant(row.get("created_at") or "")
                            if made is not None:
                                INTENT_CREATED[row["id"]] = made
    for folder, _, files in os.walk(drop):
        relative = os.path.relpath(folder, drop)
        os.makedirs(os.path.join(before, relative), exist_ok=True)
        night_rows = {}
        csv_files = sorted(name for name in files if name.endswith(".csv"))
        for name in sorted(files):
            source = os.path.join(folder, name)
            target = os.path.join(before, relative, name)
            if name.endswith(".csv"):
                split_file(source, target, night_rows, cutoff)
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
