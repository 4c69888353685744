#!/usr/bin/env python3
"""Run a dayfold pipeline as a sharded Apache Spark job (SPEC §13).

Spark schedules; dayfold does the work. The driver

1. shards the drop with ``dayfold shard`` into ``OUT/.dayfold-attempts/drop``,
2. runs one ``dayfold run`` per shard on the executors (``mapPartitions`` over
   one partition per shard) as a subprocess with an explicit argv and
   environment, each attempt into its own folder
   ``OUT/.dayfold-attempts/shard=K/attempt-<task attempt id>``,
3. commits exactly one finished attempt per shard, on the driver, from the
   results Spark returns (a retried or speculative attempt's folder is never
   read), and
4. runs ``dayfold merge`` over the committed attempts into ``OUT``: the same
   bytes a whole run on the unsharded drop publishes. The publish replaces
   ``OUT`` whole, the work area with it.

Lessons from Spark built in: ``RDD.pipe`` gives the child an empty
environment and ignores exit codes, so a plain ``subprocess.run`` with our own
env and ``check`` is used; Spark's output-commit coordinator only protects
Hadoop committers, so every attempt writes to a folder of its own and the
driver picks; a ``.zip`` archive loses the exec bit, so the binary ships as a
``.tar.gz``; and shards come from dayfold's documented hash, never Python's
``hash`` (which ``PYTHONHASHSEED`` randomizes).

Paths (``--input``, ``--output``) must be on a file system every executor sees
the same way (the local disk for ``local[N]``; NFS or a mounted share on a
cluster).

Exit codes: 0 ok; 1 a shard failed after Spark's retries, or the merge failed
(OUT keeps its previous outputs); 2 usage error, nothing written; 3 published,
but dayfold reported exit 3 (see its stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

WORK_AREA = ".dayfold-attempts"  # OutputTarget.workArea in dayfold
WORK_MARKER = "dayfold-job.json"  # OutputTarget.workAreaMarker in dayfold
ARCHIVE_NAME = "dayfold-bin.tar.gz"
# What dayfold needs from its environment and nothing else: a search path for
# nothing in particular, UTC as the process zone (dayfold reads zones by name
# from the data), and a UTF-8 locale.
CHILD_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


class UsageError(Exception):
    """A command-line or folder problem found before any work (exit 2)."""


@dataclass(frozen=True)
class ShardTask:
    """What an executor needs to run one shard: plain values, so the closure pickles small."""

    archive: str  # the shipped archive's name (addArchive) or alias (--archives …#ALIAS)
    pipeline: str | None
    splits: list[str]  # the drop of each shard: OUT/.dayfold-attempts/drop/shard=K, or the export's own splits
    presplit: bool  # the export's own splits: each run gets --presplit K/N
    attempts: str  # OUT/.dayfold-attempts
    as_of: str
    timeout: float
    fail_first_attempt: int | None


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="dayfold_spark.py",
        description="Run a dayfold pipeline on Apache Spark, one dayfold run per shard, merged into "
        "outputs byte-identical to a whole run (SPEC §13).",
        epilog="Laptop: python3 Integrations/spark/dayfold_spark.py --master 'local[*]' --dayfold "
        ".build/release/dayfold --pipeline Pipelines/sample.json --output Outputs/spark --as-of "
        "2026-03-31T18:00:00Z --shards 4.  Cluster: spark-submit --archives dayfold.tar.gz#dayfold "
        "Integrations/spark/dayfold_spark.py --dayfold-archive dayfold ... (see README).",
    )
    parser.add_argument("--master", help="Spark master URL (default: spark-submit's, else local[*])")
    binary = parser.add_mutually_exclusive_group(required=True)
    binary.add_argument("--dayfold", help="the dayfold binary (or a .tar.gz holding it) on the driver; shipped with addArchive")
    binary.add_argument(
        "--dayfold-archive",
        metavar="ALIAS",
        help="the binary was shipped by spark-submit --archives dayfold.tar.gz#ALIAS; run ALIAS/dayfold",
    )
    parser.add_argument("--pipeline", help="the pipeline file (its keys as for dayfold run)")
    parser.add_argument("--input", help="the drop (overrides the pipeline's input)")
    parser.add_argument("--output", required=True, help="where the merged outputs are published")
    parser.add_argument("--as-of", required=True, help="the run's as-of instant, e.g. 2026-03-31T18:00:00Z")
    parser.add_argument("--shards", type=int, help="how many shards (≥ 1); not with --presplit")
    parser.add_argument(
        "--presplit",
        action="store_true",
        help="--input holds the export's own splits by user, one folder each (every user's rows, subjects "
        "included, in one of them): no shard step, each folder runs as a split (dayfold run --presplit K/N)",
    )
    parser.add_argument("--timeout", type=float, default=6 * 3600, help="seconds one shard's run may take (default 6 h)")
    parser.add_argument("--log-level", default="WARN", help="Spark's log level (default WARN; ERROR hides retry warnings)")
    parser.add_argument(
        "--fail-first-attempt",
        type=int,
        metavar="K",
        help="test switch: the first attempt of shard K runs, then fails with exit 75, to prove retries",
    )
    args = parser.parse_args(argv)
    if args.presplit == (args.shards is not None):
        parser.error("give --shards N, or --presplit with an --input of split folders")
    if args.shards is not None and args.shards < 1:
        parser.error("--shards must be a whole number ≥ 1")
    if args.input is None and args.pipeline is None:
        parser.error("give --pipeline, --input or both")
    return args


def pipeline_input(pipeline: str | None, given: str | None) -> str:
    """The drop: --input, else the pipeline's `input` key (relative to the pipeline's folder)."""
    if given is not None:
        return os.path.abspath(given)
    assert pipeline is not None
    try:
        with open(pipeline, encoding="utf-8") as handle:
            config = json.load(handle)
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read the pipeline {pipeline}: {error}") from error
    drop = config.get("input")
    if not isinstance(drop, str):
        raise UsageError(f"{pipeline} has no input key; give --input DROP")
    return os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(pipeline)), drop))


def prepare_work_area(output: Path) -> Path:
    """OUT/.dayfold-attempts, fresh. Only dayfold's own folders are touched.

    OUT must be new, empty, or an earlier dayfold output (its manifest.json) or
    job (the work area's marker); a work area of an earlier, failed job is
    removed first, since it is ours and holds nothing the new job can use.
    """
    if output.exists():
        if not output.is_dir():
            raise UsageError(f"--output {output}: a file, not a folder")
        entries = set(os.listdir(output))
        ours = (output / "manifest.json").is_file() or (output / WORK_AREA / WORK_MARKER).is_file()
        if entries and not ours:
            raise UsageError(f"--output {output}: a folder that is not empty and not a dayfold output")
    area = output / WORK_AREA
    if area.exists():
        if not (area / WORK_MARKER).is_file():
            raise UsageError(f"{area} exists but is not a dayfold job's work area; move it away")
        shutil.rmtree(area)
    area.mkdir(parents=True)
    return area


def binary_archive(binary: str, into: Path) -> str:
    """A .tar.gz holding `dayfold` with its exec bit (a .zip would lose it)."""
    if binary.endswith(".tar.gz") or binary.endswith(".tgz"):
        return os.path.abspath(binary)
    if not os.access(binary, os.X_OK):
        raise UsageError(f"--dayfold {binary}: not an executable file")
    archive = into / ARCHIVE_NAME
    # Level 1: the binary is ~80 MB and gzip's default level costs seconds for a few MB less.
    with tarfile.open(archive, "w:gz", compresslevel=1) as tar:
        tar.add(binary, arcname="dayfold")
    return str(archive)


def run_shard(task: ShardTask, shard: int) -> dict:
    """On an executor: one attempt of one shard, into a folder of its own."""
    from pyspark import TaskContext

    context = TaskContext.get()
    attempt_id = context.taskAttemptId() if context else os.getpid()
    attempt_number = context.attemptNumber() if context else 0
    binary = archived_binary(task.archive)
    folder = os.path.join(task.attempts, f"shard={shard}", f"attempt-{attempt_id}")
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    argv = [binary, "run"]
    if task.pipeline:
        argv.append(task.pipeline)
    argv += ["--input", task.splits[shard], "--output", folder, "--as-of", task.as_of]
    if task.presplit:
        argv += ["--presplit", f"{shard}/{len(task.splits)}"]
    argv += ["--progress", "never"]
    started = time.monotonic()
    try:
        done = subprocess.run(
            argv, env=CHILD_ENV, capture_output=True, text=True, timeout=task.timeout, preexec_fn=die_with_parent
        )
        status, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired as expired:
        status, stderr = 124, f"timed out after {task.timeout:g} s\n{expired.stderr or ''}"
    except OSError as error:
        status, stderr = 127, f"cannot start {binary}: {error}"
    if task.fail_first_attempt == shard and attempt_number == 0 and status in (0, 3):
        status, stderr = 75, stderr + "dayfold_spark: --fail-first-attempt: this attempt is failed on purpose\n"
    # The task log keeps the shard's stderr whatever happens.
    sys.stderr.write(f"dayfold_spark: shard {shard} attempt {attempt_number} ({folder}) exit {status}\n{stderr}")
    sys.stderr.flush()
    if status not in (0, 3):
        raise RuntimeError(f"dayfold_spark: shard {shard} failed (exit {status}):\n{stderr.strip()}")
    seconds = time.monotonic() - started
    return {"shard": shard, "folder": folder, "status": status, "attempt": attempt_number, "seconds": seconds}


def split_folders(drop: str) -> list[str]:
    """The export's own splits: every folder directly inside --input, by name."""
    if not os.path.isdir(drop):
        raise UsageError(f"--input {drop}: not a folder")
    names = sorted(name for name in os.listdir(drop) if os.path.isdir(os.path.join(drop, name)))
    if not names:
        raise UsageError(f"--input {drop}: no split folders in it (--presplit wants one folder per split)")
    return [os.path.join(drop, name) for name in names]


def die_with_parent() -> None:
    """In the child before exec: end when the Python worker ends. Spark kills
    the worker of a task it cancels (a speculative attempt that lost, a
    failed job), and dayfold must not run on, unseen, into a folder nobody
    will read (Linux's PR_SET_PDEATHSIG; elsewhere nothing is done)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def commit(results: list[dict], shards: int, area: Path) -> list[str]:
    """One finished attempt per shard, from what Spark returned; written down before the merge."""
    chosen: dict[int, dict] = {}
    for result in results:
        chosen.setdefault(result["shard"], result)
    missing = sorted(set(range(shards)) - set(chosen))
    if missing:
        raise RuntimeError(f"dayfold_spark: no finished attempt for shard(s) {missing}")
    for shard, result in chosen.items():
        facts = Path(result["folder"]) / "parts" / "shard.json"
        if not facts.is_file():
            raise RuntimeError(f"dayfold_spark: shard {shard}'s attempt {result['folder']} is not a finished shard run")
    committed = [chosen[shard]["folder"] for shard in range(shards)]
    (area / "committed.json").write_text(json.dumps({"attempts": committed}, indent=2) + "\n", encoding="utf-8")
    return committed


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        return run_job(args)
    except UsageError as error:
        print(f"dayfold_spark: error: {error}", file=sys.stderr)
        return 2


def run_job(args: argparse.Namespace) -> int:
    output = Path(os.path.abspath(args.output))
    if not output.parent.is_dir():
        raise UsageError(f"--output {output}: its parent folder does not exist")
    drop = pipeline_input(args.pipeline, args.input)
    pipeline = os.path.abspath(args.pipeline) if args.pipeline else None
    # Checked before anything is written.
    given_splits = split_folders(drop) if args.presplit else None
    area = prepare_work_area(output)
    (area / WORK_MARKER).write_text(
        json.dumps({"input": drop, "pipeline": pipeline, "as_of": args.as_of, "shards": args.shards}, indent=2) + "\n",
        encoding="utf-8",
    )

    from pyspark import SparkConf, SparkContext

    conf = SparkConf().setAppName("dayfold")
    if args.master:
        conf.setMaster(args.master)
    elif not conf.contains("spark.master"):
        conf.setMaster("local[*]")
    clock = time.monotonic()
    sc = SparkContext(conf=conf)
    sc.setLogLevel(args.log_level)
    try:
        if args.dayfold:
            local = Path(tempfile.mkdtemp(prefix="dayfold-spark-"))
            shipped = binary_archive(args.dayfold, local)
            sc.addArchive(shipped)
            archive = os.path.basename(shipped)
            tarball = args.dayfold.endswith((".tar.gz", ".tgz"))
            driver_binary = unpacked_binary(shipped, local) if tarball else os.path.abspath(args.dayfold)
        else:
            archive = args.dayfold_archive
            driver_binary = archived_binary(archive)

        timings = {"spark start": time.monotonic() - clock}
        clock = time.monotonic()
        if given_splits is not None:
            splits = given_splits
            args.shards = len(splits)
        else:
            shard_drop = area / "drop"
            sharded = subprocess.run(
                [driver_binary, "shard", drop, "--shards", str(args.shards), "--out", str(shard_drop)],
                env=CHILD_ENV,
                capture_output=True,
                text=True,
            )
            if sharded.returncode != 0:
                sys.stderr.write(sharded.stderr)
                return 2 if sharded.returncode == 2 else 1
            splits = [str(shard_drop / f"shard={shard}") for shard in range(args.shards)]

        task = ShardTask(
            archive=archive,
            pipeline=pipeline,
            splits=splits,
            presplit=args.presplit,
            attempts=str(area),
            as_of=args.as_of,
            timeout=args.timeout,
            fail_first_attempt=args.fail_first_attempt,
        )
        timings["shard"] = time.monotonic() - clock
        runs_clock = time.monotonic()
        shards = sc.parallelize(range(args.shards), args.shards)
        try:
            results = shards.mapPartitions(lambda ids: [run_shard(task, shard) for shard in ids]).collect()
        except Exception as error:  # Py4JJavaError: a task failed after Spark's retries
            print(f"dayfold_spark: the job failed; nothing was merged and {output} keeps its previous outputs.", file=sys.stderr)
            print(shard_failure(str(error)), file=sys.stderr)
            return 1
    finally:
        stop_clock = time.monotonic()
        sc.stop()
        stopped = time.monotonic() - stop_clock

    timings["runs"] = stop_clock - runs_clock
    try:
        committed = commit(results, args.shards, area)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    clock = time.monotonic()
    merged = subprocess.run([driver_binary, "merge", *committed, "--output", str(output)], env=CHILD_ENV, text=True)
    timings["merge"] = time.monotonic() - clock
    if merged.returncode not in (0, 3):
        print(f"dayfold_spark: the merge failed (exit {merged.returncode}); {output} keeps its previous outputs.", file=sys.stderr)
        return 1
    worst = max([merged.returncode] + [result["status"] for result in results])
    print(f"dayfold_spark: {args.shards} shard(s) merged into {output}", file=sys.stderr)
    per_shard = " ".join(f"{result['seconds']:.2f}" for result in sorted(results, key=lambda r: r["shard"]))
    print(
        f"dayfold_spark: seconds: spark start {timings['spark start']:.2f}, shard {timings['shard']:.2f}, "
        f"runs {timings['runs']:.2f} "
        f"(per shard: {per_shard}), spark stop {stopped:.2f}, merge {timings['merge']:.2f}",
        file=sys.stderr,
    )
    return worst


def archived_binary(name: str) -> str:
    """`dayfold` inside an archive Spark unpacked: where addArchive puts it, or
    spark-submit's `--archives …#ALIAS` in the working directory."""
    from pyspark import SparkFiles

    candidates = [os.path.join(SparkFiles.get(name), "dayfold"), os.path.join(os.getcwd(), name, "dayfold")]
    for candidate in candidates:
        if os.access(candidate, os.X_OK):
            return candidate
    raise RuntimeError(f"dayfold_spark: no executable dayfold in the archive {name} (looked at {candidates})")


def unpacked_binary(archive: str, into: Path) -> str:
    """The driver's own copy of the binary inside a shipped .tar.gz (it shards and merges)."""
    target = into / "driver"
    with tarfile.open(archive, "r:gz") as tar:
        tar.extractall(target, filter="data")
    binary = target / "dayfold"
    if not binary.is_file():
        raise UsageError(f"--dayfold {archive}: the archive holds no file named dayfold at its top")
    return str(binary)


def shard_failure(message: str) -> str:
    """The failing shard's own message out of Spark's Java stack trace."""
    marker = "dayfold_spark: shard "
    start = message.rfind(marker)
    if start < 0:
        return message
    end = message.find("\n\tat ", start)
    return message[start : end if end > 0 else None].rstrip()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
