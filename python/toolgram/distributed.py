"""Coverage across processes and machines with Dask (Debian's python3-distributed).

An evaluation set split into JSONL shards is mapped over a Dask cluster, each shard's
coverage run where it lands (all its worker's cores: `jobs`), and the shards' reports
merged: the merged report equals `toolgram.coverage(all the shards)`.

    from dask.distributed import Client
    import toolgram.distributed

    client = Client("tcp://scheduler:8786")        # or Client(LocalCluster(...))
    report = toolgram.distributed.coverage(client, ["eval/part-000.jsonl", ...], tools="tools.json")
    print(report.render("markdown"))

Paths are read by the workers, so they must name the same files on every machine (a
shared file system), as with any Dask job over files. Reports travel between processes
as their json form (CoverageReport.to_dict()), which merge_reports reads back.
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional, Sequence

import toolgram


def shard_report(path: str, options: dict) -> dict:
    """One shard's coverage report as data (runs on a worker)."""
    return toolgram.coverage([path], **options).to_dict()


def coverage(client, shards: Sequence[Any], *, profile: Optional[str] = None, profile_file=None,
             tools: Any = None, model: Optional[str] = None, jobs: Optional[int] = None) -> "toolgram.CoverageReport":
    """Maps coverage over `shards` (JSONL files or corpus folders) on the cluster behind
    `client` and merges the reports in shard order. `tools` may be a path to a tools file
    (read here, once) or the tools themselves."""
    if isinstance(tools, (str, os.PathLike)) and os.path.exists(tools):
        with open(tools, encoding="utf-8") as f:
            tools = json.load(f)
    options = {"profile": profile, "tools": tools, "model": model, "jobs": jobs}
    if profile_file is not None:
        options["profile_file"] = os.fspath(profile_file)
    paths = [os.fspath(s) for s in shards]
    futures = client.map(shard_report, paths, options=options, pure=False)
    return toolgram.merge_reports(client.gather(futures))
