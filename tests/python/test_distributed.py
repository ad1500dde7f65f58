"""Coverage beyond one process: reports of shards merge into the report of the whole,
in Python and through `toolgram coverage --merge`, and on a Dask LocalCluster of two
worker processes (toolgram.distributed)."""

import json
from pathlib import Path

import pytest

import toolgram
from conftest import CORPUS, run_cli


def shards(tmp_path: Path, count: int) -> list[Path]:
    """corpus/samples.jsonl, labelled and split round-robin into `count` JSONL files."""
    lines = [json.loads(l) for l in (CORPUS / "samples.jsonl").read_text().splitlines() if l.strip()]
    for n, line in enumerate(lines):
        line["model"] = f"model-{n % 3}"  # models spread over shards, met in different orders
    paths = [tmp_path / f"part-{k}.jsonl" for k in range(count)]
    for k, p in enumerate(paths):
        p.write_text("".join(json.dumps(l) + "\n" for l in lines[k::count]))
    return paths


def without_inputs(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "inputs"}


def test_merged_shards_equal_the_whole_run(tmp_path):
    parts = shards(tmp_path, 3)
    tools = json.loads((CORPUS / "tools.json").read_text())
    whole = toolgram.coverage(parts, tools=tools, jobs=1)
    merged = toolgram.merge_reports(toolgram.coverage([p], tools=tools, jobs=1) for p in parts)
    assert merged.to_dict() == whole.to_dict()
    for fmt in ("table", "markdown", "csv", "json", "html"):
        assert merged.render(fmt) == whole.render(fmt), fmt
    # From their json form, as reports travel between machines.
    as_data = toolgram.merge_reports([toolgram.coverage([p], tools=tools).to_dict() for p in parts])
    assert as_data.to_dict() == whole.to_dict()
    assert toolgram.coverage(parts, tools=tools, jobs=2).to_dict() == whole.to_dict()


def test_the_cli_merges_reports_as_python_does(tmp_path):
    parts = shards(tmp_path, 2)
    tools = str(CORPUS / "tools.json")
    files = []
    for p in parts:
        out = tmp_path / (p.stem + ".report.json")
        r = run_cli("coverage", str(p), "--tools", tools, "--format", "json", "--output", str(out))
        assert r.returncode == 0, r.stderr
        files.append(str(out))
    merged = run_cli("coverage", "--merge", *files, "--format", "json")
    assert merged.returncode == 0, merged.stderr
    whole = run_cli("coverage", *map(str, parts), "--tools", tools, "--format", "json", "--jobs", "1")
    assert json.loads(merged.stdout) == json.loads(whole.stdout)
    python = toolgram.merge_reports(Path(f).read_text() for f in files)
    assert python.to_dict() == json.loads(whole.stdout)


def test_a_damaged_report_is_refused_naming_the_field(tmp_path):
    report = toolgram.coverage(shards(tmp_path, 1), tools=json.loads((CORPUS / "tools.json").read_text())).to_dict()
    report["models"][0]["grammars"][0]["calls"] = -1
    with pytest.raises(ValueError, match=r"models\[0\]\.grammars\[0\]\.calls: not a count"):
        toolgram.merge_reports([report])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(report))
    r = run_cli("coverage", "--merge", str(bad))
    assert r.returncode == 3 and b"models[0].grammars[0].calls: not a count" in r.stderr
    with pytest.raises(ValueError, match="not a toolgram coverage report"):
        toolgram.merge_reports([{"format": "other"}])


def test_coverage_of_records_in_memory():
    lines = [json.loads(l) for l in (CORPUS / "samples.jsonl").read_text().splitlines() if l.strip()]
    records = [dict(l, model="m") for l in lines] + [{"text": "no label"}]
    tools = json.loads((CORPUS / "tools.json").read_text())
    report = toolgram.coverage(records, tools=tools)
    assert report.outputs == len(lines)
    assert report.problems == [{"where": f"records[{len(lines)}]",
                                "message": 'the record has no "model" label (add one, or pass --model NAME)'}]
    with pytest.raises(TypeError, match="not both"):
        toolgram.coverage([records[0], str(CORPUS / "samples.jsonl")])
    with pytest.raises(ValueError, match="unknown format"):
        report.render("pdf")


def test_dask_local_cluster_of_two_processes_gives_the_single_process_report(tmp_path):
    distributed = pytest.importorskip("distributed")
    import toolgram.distributed as tgd

    parts = shards(tmp_path, 4)
    tools_path = CORPUS / "tools.json"
    whole = toolgram.coverage(parts, tools=json.loads(tools_path.read_text()), jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            merged = tgd.coverage(client, parts, tools=str(tools_path), jobs=1)
    assert merged.to_dict() == whole.to_dict()
