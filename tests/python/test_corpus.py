"""The whole corpus through Python: every result equal to the CLI's, byte for byte in
JSON, and every stream (cut at several chunk sizes) equal to the one-shot parse, its
deltas concatenating to the final content and arguments."""

import json
import tempfile
from pathlib import Path

import pytest

import toolgram
from conftest import run_cli

# Settings as `toolgram parse` flags, for the case whose text is not UTF-8 (JSONL cannot
# carry it, so the CLI reads it from its file).
FLAGS = {
    "tool_required": lambda v: ["--tool-required"] if v else [],
    "accept_calls_in_reasoning": lambda v: ["--accept-reasoning-calls"] if v else [],
    "accept_healed_calls": lambda v: [] if v else ["--refuse-healed"],
    "tag_open": lambda v: ["--tag-open", v],
    "tag_close": lambda v: ["--tag-close", v],
    "fallback_max_bytes": lambda v: ["--fallback-max-bytes", str(v)],
    "reasoning_start": lambda v: ["--reasoning-start", v],
    "reasoning_format": lambda v: ["--reasoning-format", v],
}


def cli_results(cases, tmp: Path) -> dict:
    """The CLI's result for each case: JSONL batches (one per profile file), and a run per
    file for text that is not UTF-8."""
    out = {}
    batches: dict = {}
    for c in cases:
        try:
            text = c.text.decode("utf-8")
        except UnicodeDecodeError:
            args = ["parse", str(c.path)]
            args += ["--profile-file", str(c.profile_file)] if c.profile_file else ["--profile", c.profile]
            if c.tools is not None:
                tools = tmp / "tools.json"
                tools.write_text(json.dumps(c.tools))
                args += ["--tools", str(tools)]
            for k, v in c.settings.items():
                args += FLAGS[k](v)
            p = run_cli(*args)
            assert p.returncode == 0, p.stderr
            out[c.id] = json.loads(p.stdout)
            continue
        line = {"id": c.id, "text": text, "settings": c.settings}
        if c.tools is not None:
            line["tools"] = c.tools
        if not c.profile_file:
            line["profile"] = c.profile
        batches.setdefault(c.profile_file, []).append(line)
    for profile_file, lines in batches.items():
        path = tmp / "batch.jsonl"
        path.write_text("".join(json.dumps(l) + "\n" for l in lines))
        args = ["parse", "--jsonl", str(path)] + (["--profile-file", str(profile_file)] if profile_file else [])
        p = run_cli(*args)
        assert p.returncode == 0, p.stderr
        for row in map(json.loads, p.stdout.splitlines()):
            out[row.pop("id")] = row
    return out


def test_every_corpus_result_equals_the_cli(corpus_cases):
    assert len(corpus_cases) > 1000
    with tempfile.TemporaryDirectory() as tmp:
        expected = cli_results(corpus_cases, Path(tmp))
    assert set(expected) == {c.id for c in corpus_cases}
    differ = []
    for c in corpus_cases:
        got = toolgram.Parser(**c.parser_args()).parse(c.text).to_dict()
        if got != expected[c.id]:
            differ.append(c.id)
    assert differ == []


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_every_corpus_stream_equals_the_one_shot_parse(corpus_cases, chunk):
    for c in corpus_cases:
        parser = toolgram.Parser(**c.parser_args())
        batch = parser.parse(c.text)
        stream = toolgram.StreamParser(parser)
        events = []
        for i in range(0, len(c.text), chunk):
            events += stream.feed(c.text[i:i + chunk])
        last, result = stream.finish()
        events += last
        assert result.to_dict() == batch.to_dict(), c.id
        # Content deltas concatenate to the content; each accepted call's argument deltas
        # to its arguments JSON; accepted calls come in the result's order.
        content = "".join(e.text for e in events if e.kind == "content")
        assert content == batch.content, c.id
        args: dict = {}
        accepted = []
        for e in events:
            if e.kind == "call_begin":
                args[e.openai_index] = ""
            elif e.kind == "call_arguments":
                args[e.openai_index] += e.text
            elif e.kind == "call_end" and e.call is not None:
                accepted.append((e.call.name, args[e.openai_index]))
        assert accepted == [(call.name, call.arguments_json) for call in batch.calls], c.id


def test_parse_jsonl_on_several_threads_prints_the_same_bytes(corpus_cases, tmp_path):
    lines = []
    for c in corpus_cases:
        if c.profile_file is None and c.text.isascii():
            line = {"id": c.id, "text": c.text.decode(), "settings": c.settings, "profile": c.profile}
            if c.tools is not None:
                line["tools"] = c.tools
            lines.append(line)
    batch = tmp_path / "batch.jsonl"
    # A bad line and a blank one among them: answered in their place, or skipped.
    body = [json.dumps(l) for l in lines]
    body.insert(5, "{not json")
    body.insert(9, "   ")
    batch.write_text("\n".join(body) + "\n")
    one = run_cli("parse", "--jsonl", str(batch), "--jobs", "1")
    assert one.returncode == 0, one.stderr
    assert len(one.stdout.splitlines()) == len(lines) + 1
    assert b'"message":"line 6: ' in one.stdout.splitlines()[5]
    for jobs in ("2", "5"):
        many = run_cli("parse", "--jsonl", str(batch), "--jobs", jobs)
        assert many.returncode == 0 and many.stdout == one.stdout, jobs
    summary = run_cli("parse", "--jsonl", str(batch), "--jobs", "3", "--summary")
    assert summary.stdout == run_cli("parse", "--jsonl", str(batch), "--jobs", "1", "--summary").stdout
    bad = run_cli("parse", "--jsonl", str(batch), "--jobs", "0")
    assert bad.returncode == 2 and b"--jobs needs a whole number from 1 to 1024" in bad.stderr
