#!/usr/bin/env python3
"""The Spark driver (SPEC §13) on PySpark local[2,2], against whole runs.

local[2,2] is two worker threads with two attempts per task, so
--fail-first-attempt proves that a failed attempt is retried, that its folder
is never merged, and that the result is still byte-identical to a whole run.
A shard that fails every attempt must fail the job with the shard's stderr and
leave the previous outputs as they were.

Usage: test_dayfold_spark.py DAYFOLD_BINARY   (run from the repository root)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "Integrations" / "spark" / "dayfold_spark.py"
FIXTURES = ROOT / "Tests" / "DayfoldCoreTests" / "Fixtures"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by relative path; the manifest without its timings."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.name == "manifest.json" and path.parent == folder:
                manifest = json.loads(data)
                manifest.pop("timings_seconds", None)
                data = json.dumps(manifest, sort_keys=True).encode()
            files[str(path.relative_to(folder))] = data
    return files


def whole_run(dayfold: str, drop: Path, pipeline: Path | None, as_of: str, out: Path) -> None:
    argv = [dayfold, "run"] + ([str(pipeline)] if pipeline else []) + ["--input", str(drop), "--output", str(out)]
    done = subprocess.run(argv + ["--as-of", as_of], capture_output=True, text=True)
    assert done.returncode in (0, 3), done.stderr


def driver(dayfold: str, args: list[str]) -> subprocess.CompletedProcess:
    argv = [sys.executable, str(DRIVER), "--master", "local[2,2]", "--dayfold", dayfold, "--log-level", "ERROR"]
    return subprocess.run(argv + args, capture_output=True, text=True, timeout=600)


def equals_whole_run(dayfold: str, work: Path, name: str, drop: Path, pipeline: Path | None, as_of: str,
                     shards: int, extra: list[str]) -> subprocess.CompletedProcess:
    whole, sharded = work / f"{name}-whole", work / f"{name}-spark"
    whole_run(dayfold, drop, pipeline, as_of, whole)
    args = (["--pipeline", str(pipeline)] if pipeline else []) + ["--input", str(drop), "--output", str(sharded)]
    done = driver(dayfold, args + ["--as-of", as_of, "--shards", str(shards)] + extra)
    assert done.returncode in (0, 3), f"{name}: driver exit {done.returncode}\n{done.stderr[-4000:]}"
    want, got = tree(whole), tree(sharded)
    different = sorted(path for path in set(want) | set(got) if want.get(path) != got.get(path))
    assert not different, f"{name}: {shards} shards on Spark differ from a whole run in {different}"
    assert not (sharded / ".dayfold-attempts").exists(), f"{name}: the work area outlived the publish"
    print(f"spark: {name}, {shards} shards on local[2,2] {' '.join(extra)} = a whole run ({len(want)} files)")
    return done


def main() -> int:
    dayfold = os.path.abspath(sys.argv[1])
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        print("spark: SKIPPED — no Java on this machine (PySpark needs Java 17); the driver was not tested")
        return 0
    work = Path(tempfile.mkdtemp(prefix="dayfold-spark-test-"))
    try:
        # A retried first attempt: its folder exists, was never merged, and the result is a whole run's.
        retried = equals_whole_run(dayfold, work, "sample", ROOT / "SampleData" / "demo", ROOT / "Pipelines" / "sample.json",
                                   "2026-03-31T18:00:00Z", 3, ["--fail-first-attempt", "1"])
        assert "shard 1 attempt 0" in retried.stderr and "exit 75" in retried.stderr, retried.stderr[-3000:]
        assert "shard 1 attempt 1" in retried.stderr, "shard 1 was not retried:\n" + retried.stderr[-3000:]

        # More shards than client users, and a drop whose rows name users in every file kind.
        equals_whole_run(dayfold, work, "conformance", FIXTURES / "Conformance" / "drop",
                         FIXTURES / "Conformance" / "pipeline.json", "2026-03-29T09:30:00Z", 7, [])
        # A shard that fails every attempt fails the job with its stderr; the previous outputs stay.
        previous = work / "sample-spark"
        before = tree(previous)
        failed = driver(dayfold, ["--pipeline", str(ROOT / "Pipelines" / "sample.json"), "--output", str(previous),
                                  "--as-of", "2026-03-31T18:00:00Z", "--shards", "2", "--timeout", "0.001"])
        assert failed.returncode == 1, f"a failing shard gave exit {failed.returncode}\n{failed.stderr[-3000:]}"
        assert "keeps its previous outputs" in failed.stderr, failed.stderr[-3000:]
        assert "failed (exit 124)" in failed.stderr and "timed out after" in failed.stderr, failed.stderr[-3000:]
        after = {path: data for path, data in tree(previous).items() if not path.startswith(".dayfold-attempts/")}
        assert after == before, "a failed job changed the previous outputs"
        print("spark: a shard failing every attempt fails the job (exit 1) with its stderr; previous outputs kept")

        # The next job over a failed one's work area succeeds and retires it: here an export already split
        # by user (two generated drops of their own users), which skips the shard step (--presplit).
        export = work / "export"
        for name, clients, seed in (("eu", 3, 1), ("us", 4, 2)):
            made = subprocess.run([dayfold, "generate", "--clients", str(clients), "--days", "30", "--seed", str(seed),
                                   "--out", str(export / name)], capture_output=True, text=True)
            assert made.returncode == 0, made.stderr
        union = work / "union"
        for name in ("eu", "us"):
            for path in sorted((export / name).rglob("*")):
                if not path.is_file():
                    continue
                relative = path.relative_to(export / name)
                target = union / relative.parent / (relative.name if relative.parts[0] == "subjects" else f"{name}-{relative.name}")
                target.parent.mkdir(parents=True, exist_ok=True)
                lines = path.read_text().splitlines(keepends=True)
                if target.exists():
                    with target.open("a") as handle:
                        handle.writelines(lines[1:])
                else:
                    target.write_text("".join(lines))
        as_of = "2026-05-01T12:00:00Z"
        whole = work / "union-whole"
        whole_run(dayfold, union, None, as_of, whole)
        done = driver(dayfold, ["--input", str(export), "--presplit", "--output", str(previous), "--as-of", as_of])
        assert done.returncode == 0, done.stderr[-3000:]
        want, got = tree(whole), tree(previous)
        different = sorted(path for path in set(want) | set(got)
                           if (path.startswith("reports/") or path.startswith("snapshots/")) and want.get(path) != got.get(path))
        assert not different, f"presplit: differs from the run of the splits side by side in {different}"
        assert not (previous / ".dayfold-attempts").exists(), "presplit: the failed job's work area outlived the publish"
        print("spark: an export split by user (--presplit) = a run of its splits side by side; "
              "a failed job's work area replaced")

        # Usage errors come before Spark starts and write nothing.
        user_folder = work / "user-folder"
        user_folder.mkdir()
        (user_folder / "notes.txt").write_text("mine")
        refused = driver(dayfold, ["--input", str(ROOT / "SampleData" / "demo"), "--output", str(user_folder),
                                   "--as-of", "2026-03-31T18:00:00Z", "--shards", "2"])
        assert refused.returncode == 2, refused.stderr
        assert sorted(os.listdir(user_folder)) == ["notes.txt"], "the driver wrote into a user's folder"
        print("spark: a user's folder as --output is refused (exit 2) and left as it was")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
