#!/usr/bin/env python3
"""Check that a dayfold Parquet snapshot holds exactly the rows of a CSV report.

usage: python3 parquet_matches_csv.py FILE.parquet REPORT.csv [--keys k1,k2]

The Parquet file is read twice, with pyarrow and with duckdb, and each reading
is compared with the CSV:
  * every column chunk is ZSTD-compressed;
  * columns whose CSV values look like dates (YYYY-MM-DD) are DATE columns and
    columns that look like UTC timestamps (2026-03-08T07:15:00Z, optionally with
    a fraction) are TIMESTAMP columns adjusted to UTC -- not integers or strings;
  * the column names and the row count match the CSV's;
  * every value matches: an empty CSV field is NULL (an empty string is
    accepted too, CSV cannot tell them apart); numbers compare as floats with a
    relative tolerance of 1e-12 (integers exactly); booleans are true/false;
    dates YYYY-MM-DD; timestamps compare to the microsecond.

With --keys, both sides are sorted by those columns first; without, rows are
compared in file order. Exits 1 with a message on the first difference, 2 on a
usage error, 0 with a one-line OK summary otherwise.
"""

import argparse
import csv
import datetime as dt
import math
import re
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TIMESTAMP_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$")
EPOCH_DATE = dt.date(1970, 1, 1)
REL_TOLERANCE = 1e-12


class Mismatch(Exception):
    """The first difference found; its message is printed as is."""


def fail(message):
    raise Mismatch(message)


# ---- kinds --------------------------------------------------------------------

def arrow_kind(arrow_type):
    """The comparison kind of an Arrow column type."""
    if pa.types.is_boolean(arrow_type):
        return "bool"
    if pa.types.is_integer(arrow_type):
        return "int"
    if pa.types.is_floating(arrow_type):
        return "float"
    if pa.types.is_date32(arrow_type) or pa.types.is_date64(arrow_type):
        return "date"
    if pa.types.is_timestamp(arrow_type):
        return "timestamp"
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return "string"
    fail(f"unsupported Arrow type {arrow_type}")


def duckdb_kind(sql_type):
    sql_type = sql_type.upper()
    if sql_type == "BOOLEAN":
        return "bool"
    if sql_type in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT"):
        return "int"
    if sql_type in ("FLOAT", "DOUBLE", "REAL"):
        return "float"
    if sql_type == "DATE":
        return "date"
    if sql_type.startswith("TIMESTAMP"):
        return "timestamp"
    if sql_type == "VARCHAR":
        return "string"
    fail(f"unsupported DuckDB type {sql_type}")


# ---- normalisation: every value becomes None, bool, int, float, str, or
# ---- ("date", days) / ("ts", micros) so both readers and the CSV compare alike

def csv_value(text, kind, where):
    if text == "":
        return None
    try:
        if kind == "bool":
            lowered = text.lower()
            if lowered not in ("true", "false"):
                raise ValueError("not true/false")
            return lowered == "true"
        if kind == "int":
            return int(text) if re.fullmatch(r"[+-]?\d+", text) else float(text)
        if kind == "float":
            return float(text)
        if kind == "date":
            if not DATE_RE.match(text):
                raise ValueError("not YYYY-MM-DD")
            return ("date", (dt.date.fromisoformat(text) - EPOCH_DATE).days)
        if kind == "timestamp":
            return ("ts", timestamp_micros(text))
        return text
    except ValueError as error:
        fail(f"{where}: CSV value {text!r} is not a valid {kind}: {error}")


def timestamp_micros(text):
    match = TIMESTAMP_RE.match(text)
    if not match:
        raise ValueError("not a UTC ISO-8601 timestamp like 2026-03-08T07:15:00Z")
    year, month, day, hour, minute, second, fraction = match.groups()
    days = (dt.date(int(year), int(month), int(day)) - EPOCH_DATE).days
    micros = int((fraction or "").ljust(6, "0"))
    return ((days * 24 + int(hour)) * 60 + int(minute)) * 60_000_000 + int(second) * 1_000_000 + micros


def arrow_value(value, kind):
    if value is None:
        return None
    if kind == "date":
        return ("date", (value - EPOCH_DATE).days)
    if kind == "timestamp":
        return ("ts", value)  # read as int64 microseconds, see read_pyarrow
    return value


def display(value):
    if isinstance(value, tuple) and value[0] == "date":
        return (EPOCH_DATE + dt.timedelta(days=value[1])).isoformat()
    if isinstance(value, tuple) and value[0] == "ts":
        seconds, micros = divmod(value[1], 1_000_000)
        text = (dt.datetime(1970, 1, 1) + dt.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")
        if micros:
            text += "." + f"{micros:06d}".rstrip("0")
        return text + "Z"
    if value is None:
        return "NULL"
    return repr(value)


def same(parquet, expected, kind):
    if expected is None:
        return parquet is None or parquet == ""
    if parquet is None:
        return False
    if kind in ("int", "float"):
        if isinstance(parquet, int) and isinstance(expected, int) and not isinstance(parquet, bool):
            return parquet == expected
        a, b = float(parquet), float(expected)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if a == b:
            return True
        return abs(a - b) <= REL_TOLERANCE * max(abs(a), abs(b))
    return parquet == expected


# ---- readers ------------------------------------------------------------------

def read_pyarrow(path):
    parquet_file = pq.ParquetFile(path)
    metadata = parquet_file.metadata
    for group_index in range(metadata.num_row_groups):
        group = metadata.row_group(group_index)
        for column_index in range(group.num_columns):
            chunk = group.column(column_index)
            if chunk.compression != "ZSTD":
                fail(f"{path}: row group {group_index} column {chunk.path_in_schema} is {chunk.compression}, expected ZSTD")
    table = parquet_file.read()
    kinds = {}
    columns = {}
    for field in table.schema:
        kind = arrow_kind(field.type)
        if kind == "timestamp" and (field.type.unit != "us" or field.type.tz not in ("UTC", "+00:00", "Etc/UTC")):
            fail(f"{path}: column {field.name} is {field.type}, expected timestamp[us, tz=UTC]")
        kinds[field.name] = kind
        column = table.column(field.name)
        if kind == "timestamp":
            column = column.cast(pa.int64())
        columns[field.name] = [arrow_value(v, kind) for v in column.to_pylist()]
    return kinds, columns, table.num_rows


def read_duckdb(path):
    connection = duckdb.connect()
    source = "read_parquet(?)"
    codecs = connection.execute("SELECT DISTINCT compression FROM parquet_metadata(?)", [path]).fetchall()
    if sorted(c[0] for c in codecs) != ["ZSTD"]:
        fail(f"{path}: duckdb sees compression {sorted(c[0] for c in codecs)}, expected only ZSTD")
    described = connection.execute(f"DESCRIBE SELECT * FROM {source}", [path]).fetchall()
    kinds = {}
    selects = []
    for name, sql_type, *_ in described:
        kind = duckdb_kind(sql_type)
        if kind == "timestamp" and sql_type.upper() != "TIMESTAMP WITH TIME ZONE":
            fail(f"{path}: duckdb reads column {name} as {sql_type}, expected TIMESTAMP WITH TIME ZONE")
        kinds[name] = kind
        quoted = '"' + name.replace('"', '""') + '"'
        if kind == "timestamp":
            selects.append(f"epoch_us({quoted})")
        elif kind == "date":
            selects.append(f"datediff('day', DATE '1970-01-01', {quoted})")
        else:
            selects.append(quoted)
    rows = connection.execute(f"SELECT {', '.join(selects)} FROM {source}", [path]).fetchall()
    names = [d[0] for d in described]
    columns = {name: [] for name in names}
    for row in rows:
        for name, value in zip(names, row):
            kind = kinds[name]
            if value is not None and kind == "date":
                value = ("date", value)
            elif value is not None and kind == "timestamp":
                value = ("ts", value)
            columns[name].append(value)
    return kinds, columns, len(rows)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        try:
            header = next(reader)
        except StopIteration:
            fail(f"{path}: CSV is empty (no header row)")
        rows = []
        for line_number, row in enumerate(reader, start=2):
            if len(row) != len(header):
                fail(f"{path}:{line_number}: {len(row)} fields, header has {len(header)}")
            rows.append(row)
    return header, rows


# ---- comparison -------------------------------------------------------------

def check_types_against_csv(reader, kinds, header, csv_rows, csv_path):
    """A column whose CSV values are all dates (or timestamps) must be a DATE (TIMESTAMP) column."""
    for index, name in enumerate(header):
        values = [row[index] for row in csv_rows if row[index] != ""]
        if not values:
            continue
        if all(DATE_RE.match(v) for v in values) and kinds[name] != "date":
            fail(f"{reader}: column {name} holds dates in {csv_path} but is read as {kinds[name]}, expected DATE")
        if all(TIMESTAMP_RE.match(v) for v in values) and kinds[name] != "timestamp":
            fail(f"{reader}: column {name} holds timestamps in {csv_path} but is read as {kinds[name]}, expected TIMESTAMP")


def sort_key(keys):
    def key(row):
        parts = []
        for name in keys:
            value = row[name]
            parts.append((value is not None, value if value is not None else 0))
        return parts
    return key


def compare(reader, kinds, columns, row_count, header, csv_rows, keys, parquet_path, csv_path):
    if set(kinds) != set(header):
        only_parquet = sorted(set(kinds) - set(header))
        only_csv = sorted(set(header) - set(kinds))
        fail(f"{reader}: columns differ: only in {parquet_path}: {only_parquet}; only in {csv_path}: {only_csv}")
    if row_count != len(csv_rows):
        fail(f"{reader}: {parquet_path} has {row_count} rows, {csv_path} has {len(csv_rows)}")
    check_types_against_csv(reader, kinds, header, csv_rows, csv_path)
    expected = []
    for line_index, row in enumerate(csv_rows):
        record = {"__line": line_index + 2}
        for name, text in zip(header, row):
            record[name] = csv_value(text, kinds[name], f"{csv_path}:{line_index + 2}: column {name}")
        expected.append(record)
    actual = [{"__row": i, **{name: columns[name][i] for name in header}} for i in range(row_count)]
    if keys:
        expected.sort(key=sort_key(keys))
        actual.sort(key=sort_key(keys))
    for parquet_row, csv_row in zip(actual, expected):
        for name in header:
            if not same(parquet_row[name], csv_row[name], kinds[name]):
                key_text = ", ".join(f"{k}={display(csv_row[k])}" for k in keys) if keys else ""
                fail(
                    f"{reader}: {parquet_path} row {parquet_row['__row']} vs {csv_path}:{csv_row['__line']}"
                    f"{' (' + key_text + ')' if key_text else ''}: column {name}: "
                    f"parquet {display(parquet_row[name])} != csv {display(csv_row[name])}"
                )


def main(argv):
    parser = argparse.ArgumentParser(description="Check a dayfold Parquet snapshot against a CSV report.")
    parser.add_argument("parquet")
    parser.add_argument("csv")
    parser.add_argument("--keys", default="", help="comma-separated key columns to sort both sides by")
    arguments = parser.parse_args(argv)
    keys = [k for k in arguments.keys.split(",") if k]
    try:
        header, csv_rows = read_csv(arguments.csv)
        missing = [k for k in keys if k not in header]
        if missing:
            print(f"error: --keys {missing} not in the CSV header {header}", file=sys.stderr)
            return 2
        for reader, read in (("pyarrow", read_pyarrow), ("duckdb", read_duckdb)):
            kinds, columns, row_count = read(arguments.parquet)
            compare(reader, kinds, columns, row_count, header, csv_rows, keys, arguments.parquet, arguments.csv)
    except Mismatch as mismatch:
        print(f"MISMATCH: {mismatch}", file=sys.stderr)
        return 1
    except (OSError, pa.ArrowException, duckdb.Error) as error:
        print(f"error: cannot read the inputs: {error}", file=sys.stderr)
        return 1
    groups = pq.ParquetFile(arguments.parquet).metadata.num_row_groups
    print(
        f"OK {arguments.parquet} matches {arguments.csv}: {len(csv_rows)} rows, {len(header)} columns, "
        f"{groups} row groups, ZSTD, read by pyarrow and duckdb"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
