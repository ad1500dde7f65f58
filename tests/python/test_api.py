"""The Python API: shapes (toolgram's own and OpenAI's), errors as the CLI words them,
text as str or bytes, hostile Python data, threads sharing one Parser, profiles and
instructions equal to the CLI's."""

import json
import threading
import warnings

import pytest

import toolgram
from conftest import run_cli

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
    },
}
HERMES_TWO_CALLS = (
    "Let me check both.\n"
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>\n'
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Bergen", "days": 3}}\n</tool_call>'
)


def test_a_parse_gives_calls_content_and_telemetry():
    r = toolgram.Parser("hermes", tools=[WEATHER]).parse(HERMES_TWO_CALLS)
    assert [(c.id, c.name, c.arguments, c.healed) for c in r.calls] == [
        ("call_0", "get_weather", {"city": "Oslo"}, False),
        ("call_1", "get_weather", {"city": "Bergen", "days": 3}, False),
    ]
    assert r.calls[1].arguments_json == '{"city":"Bergen","days":3}'
    assert r.content == "Let me check both."
    assert r.reasoning == ""
    assert r.error is None
    assert r.telemetry["parse_mode"] == "primary"
    assert r.telemetry["grammar"] == "hermes"
    assert [c["schema"] for c in r.telemetry["candidates"]] == ["pass", "pass"]


def test_to_openai_is_an_assistant_message_with_json_string_arguments():
    r = toolgram.Parser("hermes", tools=[WEATHER]).parse(HERMES_TWO_CALLS)
    assert r.to_openai() == {
        "role": "assistant",
        "content": "Let me check both.",
        "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'}},
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city":"Bergen","days":3}'}},
        ],
    }


def test_to_dict_equals_the_cli(tmp_path):
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([WEATHER]))
    p = run_cli("parse", "--profile", "hermes", "--tools", str(tools), input=HERMES_TWO_CALLS.encode())
    assert p.returncode == 0
    assert toolgram.Parser("hermes", tools=[WEATHER]).parse(HERMES_TWO_CALLS).to_dict() == json.loads(p.stdout)
    p = run_cli("parse", "--profile", "hermes", "--tools", str(tools), "--openai", input=HERMES_TWO_CALLS.encode())
    assert toolgram.Parser("hermes", tools=[WEATHER]).parse(HERMES_TWO_CALLS).to_openai() == json.loads(p.stdout)


def test_a_call_that_fails_its_schema_is_refused_with_the_reason():
    r = toolgram.Parser("hermes", tools=[WEATHER]).parse(
        '<tool_call>{"name": "get_weather", "arguments": {"days": 2}}</tool_call>')
    assert r.calls == []
    assert r.telemetry["candidates"][0]["schema"] == "fail"
    assert "city" in r.telemetry["rejected"][0]["reason"]
    assert r.telemetry["rejected"][0]["code"] == "schema_mismatch"
    assert r.telemetry["candidates"][0]["code"] == "schema_mismatch"
    assert r.to_openai() == {"role": "assistant", "content": None}


def test_str_and_bytes_give_the_same_result_and_bad_utf8_becomes_replacement_characters():
    p = toolgram.Parser("hermes", tools=[WEATHER])
    assert p.parse(HERMES_TWO_CALLS).to_dict() == p.parse(HERMES_TWO_CALLS.encode()).to_dict()
    r = p.parse(b"caf\xe9 au lait")
    assert r.content == "caf\ufffd au lait"
    with pytest.raises(TypeError, match="str or bytes"):
        p.parse(42)


def test_a_healed_call_says_so():
    r = toolgram.Parser("hermes", tools=[WEATHER]).parse('<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"')
    assert [c.healed for c in r.calls] == [True]
    assert r.to_openai()["tool_calls"][0]["healed"] is True
    refused = toolgram.Parser("hermes", tools=[WEATHER], settings={"accept_healed_calls": False}).parse(
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"')
    assert refused.calls == []


def test_a_format_error_comes_with_a_correction_prompt():
    r = toolgram.Parser("hermes", tools=[WEATHER]).parse('<tool_call>{"name": "get_weather", "arguments": {"city": }}</tool_call>')
    assert r.calls == []
    assert set(r.error) == {"message", "offset", "line", "column", "expected", "correction_prompt"}
    assert r.error["correction_prompt"]


# -- streaming -----------------------------------------------------------------------------

def stream_all(parser, text, size):
    s = toolgram.StreamParser(parser)
    events = []
    for i in range(0, len(text), size):
        events += s.feed(text[i:i + size])
    last, result = s.finish()
    return events + last, result


def test_stream_events_and_their_openai_deltas():
    parser = toolgram.Parser("hermes", tools=[WEATHER], settings={"reasoning_start": "outside"})
    events, result = stream_all(parser, HERMES_TWO_CALLS, 5)
    assert result.to_dict() == parser.parse(HERMES_TWO_CALLS).to_dict()
    kinds = [e.kind for e in events]
    assert kinds.count("call_begin") == 2 and kinds.count("call_end") == 2
    deltas = toolgram.openai_deltas(events)
    # Accumulated as an OpenAI client accumulates chunks, the deltas give the message.
    message = {"content": "", "tool_calls": {}}
    for d in deltas:
        assert set(d) <= {"content", "tool_calls"}
        message["content"] += d.get("content", "")
        for tc in d.get("tool_calls", []):
            slot = message["tool_calls"].setdefault(tc["index"], {"id": None, "name": "", "arguments": ""})
            if "id" in tc:
                assert tc["type"] == "function"
                slot["id"] = tc["id"]
                slot["name"] += tc["function"]["name"]
            slot["arguments"] += tc["function"]["arguments"]
    want = result.to_openai()
    assert message["content"] == want["content"]
    assert [(s["id"], s["name"], s["arguments"]) for _, s in sorted(message["tool_calls"].items())] == [
        (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in want["tool_calls"]]
    ends = [e for e in events if e.kind == "call_end"]
    assert [e.call.arguments for e in ends] == [{"city": "Oslo"}, {"city": "Bergen", "days": 3}]
    assert all(e.to_openai() is None for e in ends)
    assert events[0].to_dict()["event"] in ("content", "tool_call_begin")


def test_a_call_refused_after_its_announcement_keeps_its_openai_index():
    # Announced when its name is read, refused at its end (no "city"): the next call gets
    # toolgram index 0 again, but a new OpenAI index, so a client's slots never collide.
    text = ('<tool_call>{"name": "get_weather", "arguments": {"days": 2}}</tool_call>\n'
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>')
    parser = toolgram.Parser("hermes", tools=[WEATHER], settings={"reasoning_start": "outside"})
    events, result = stream_all(parser, text, 3)
    ends = [e for e in events if e.kind == "call_end"]
    assert [(e.index, e.openai_index, e.call is None) for e in ends] == [(0, 0, True), (0, 1, False)]
    assert "city" in ends[0].rejection
    assert [e.rejection_code for e in ends] == ["schema_mismatch", None]
    assert [c.arguments for c in result.calls] == [{"city": "Oslo"}]


def test_a_finished_stream_refuses_more():
    s = toolgram.StreamParser(toolgram.Parser("hermes"))
    s.feed("hello")
    s.finish()
    with pytest.raises(ValueError, match="after finish"):
        s.feed("more")
    with pytest.raises(ValueError, match="twice"):
        s.finish()


# -- errors ---------------------------------------------------------------------------------

def test_errors_are_the_clis_messages(tmp_path):
    with pytest.raises(toolgram.ProfileError, match='unknown profile "nope"'):
        toolgram.Parser("nope")
    p = run_cli("parse", "--profile", "nope", input=b"x")
    assert p.returncode == 2 and 'unknown profile "nope"' in p.stderr.decode()
    with pytest.raises(toolgram.ToolsError, match=r'tools\[0\] has no "name" string'):
        toolgram.Parser("hermes", tools=[{"type": "function", "function": {"parameters": {}}}])
    with pytest.raises(toolgram.SettingsError, match="settings.bogus: unknown field"):
        toolgram.Parser("hermes", settings={"bogus": True})
    with pytest.raises(toolgram.SettingsError, match="settings.tool_required"):
        toolgram.Parser("hermes", settings={"tool_required": "yes"})
    bad = tmp_path / "bad.profile.json"
    bad.write_text('{"name": "x", "grammar": "declared"}')
    with pytest.raises(toolgram.ProfileError, match="^profile file " + str(bad)):
        toolgram.Parser(profile_file=bad)
    with pytest.raises(toolgram.ProfileError, match="cannot read"):
        toolgram.Parser(profile_file=tmp_path / "missing.json")
    with pytest.raises(toolgram.ProfileError, match="both name a profile"):
        toolgram.Parser("hermes", profile_file=bad)
    assert issubclass(toolgram.ProfileError, toolgram.ToolgramError)
    assert issubclass(toolgram.ToolgramError, ValueError)


def test_a_schema_that_cannot_be_used_warns_and_refuses_its_calls():
    bad = {"type": "function", "function": {"name": "f", "parameters": {"type": "float"}}}
    with pytest.warns(toolgram.ToolSchemaWarning, match='tool "f"'):
        p = toolgram.Parser("hermes", tools=[bad, WEATHER])
    assert [t["tool"] for t in p.tool_problems] == ["f"]
    r = p.parse('<tool_call>{"name": "f", "arguments": {}}</tool_call>')
    assert r.calls == [] and r.telemetry["rejected"]


def test_tools_as_json_text_and_hostile_python_data():
    p = toolgram.Parser("hermes", tools=json.dumps([WEATHER]))
    assert p.tools == ["get_weather"]
    with pytest.raises(toolgram.ToolsError, match="tools"):
        toolgram.Parser("hermes", tools="[{")
    deep: list = []
    node = deep
    for _ in range(10000):
        node.append([])
        node = node[0]
    with pytest.raises(toolgram.ToolsError, match="nested deeper than 256"):
        toolgram.Parser("hermes", tools=[{"type": "function", "function": {"name": "f", "parameters": {"x": deep}}}])
    cyclic: dict = {"type": "function", "function": {"name": "f", "parameters": {}}}
    cyclic["function"]["parameters"]["self"] = cyclic
    with pytest.raises(toolgram.ToolsError, match="contains itself"):
        toolgram.Parser("hermes", tools=[cyclic])
    with pytest.raises(TypeError, match="object keys must be str"):
        toolgram.Parser("hermes", tools=[{"type": "function", "function": {"name": "f", "parameters": {1: 2}}}])
    with pytest.raises(TypeError, match="set is not a JSON value"):
        toolgram.Parser("hermes", tools=[{"type": "function", "function": {"name": "f", "parameters": {"a": {1}}}}])
    with pytest.raises(toolgram.SettingsError, match="NaN"):
        toolgram.Parser("hermes", settings={"fallback_max_bytes": float("nan")})


# Issue 29, items 16-20: what the second red-team round sent through the package.

def test_a_lone_surrogate_in_text_parses_as_invalid_utf8_does():
    # "Parsing never raises on any text": a str holding a lone surrogate (a model's bytes
    # decoded with surrogateescape) parses as the invalid UTF-8 it stands for.
    p = toolgram.Parser("hermes", tools=[WEATHER])
    text = "before \udcff " + HERMES_TWO_CALLS
    r = p.parse(text)
    assert [c.arguments["city"] for c in r.calls] == ["Oslo", "Bergen"]
    assert r.content == "before \ufffd\ufffd\ufffd Let me check both."
    assert r.content == p.parse("before \udcff Let me check both.").content
    # The same through the stream, the surrogate in a chunk of its own.
    s = toolgram.StreamParser(p)
    s.feed("before ")
    s.feed("\udcff")
    s.feed(" " + HERMES_TWO_CALLS)
    assert s.finish()[1].to_dict() == r.to_dict()
    # In a tool list it is not text: refused like a file holding it, not a UnicodeEncodeError.
    bad = {"type": "function", "function": {"name": "get_\ud800weather", "parameters": {}}}
    with pytest.raises(toolgram.ToolsError, match="lone surrogate"):
        toolgram.Parser("hermes", tools=[bad])


def test_an_int_past_a_double_is_a_tools_error():
    tool = {"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"n": {"type": "integer", "maximum": 10**400}}}}}
    with pytest.raises(toolgram.ToolsError, match=r"tools: an int past the largest JSON number toolgram holds"):
        toolgram.Parser("hermes", tools=[tool])
    # 10**300 still fits a double: accepted, as a file's 1e300 is.
    tool["function"]["parameters"]["properties"]["n"]["maximum"] = 10**300
    assert toolgram.Parser("hermes", tools=[tool]).tools == ["f"]


def test_shared_parts_and_endless_lists_are_bounded_by_size_not_only_depth():
    # 31 nodes, each list holding the next twice, 30 levels: 2^30 leaves once expanded.
    node: list = ["leaf"]
    for _ in range(30):
        node = [node, node]
    tool = {"type": "function", "function": {"name": "f", "parameters": {"x": node}}}
    with pytest.raises(toolgram.ToolsError, match=r"tools: larger than the limit for a JSON document"):
        toolgram.Parser("hermes", tools=[tool])

    class Endless(list):
        def __iter__(self):
            while True:
                yield 1

    endless = Endless([1])
    with pytest.raises(toolgram.ToolsError, match="counts every visit"):
        toolgram.Parser("hermes", tools=[{"type": "function", "function": {"name": "f", "parameters": {"x": endless}}}])
    with pytest.raises(ValueError, match="a record: larger than"):
        toolgram.coverage([{"model": "m", "text": "hi", "x": node}], profile="hermes")

    def endless_records():
        while True:
            yield {"model": "m", "text": "x" * (1 << 20)}

    with pytest.raises(ValueError, match="a record: larger than the limit for a coverage input"):
        toolgram.coverage(endless_records(), profile="hermes")


def test_two_keys_one_text_are_a_key_given_twice():
    class Sneaky(str):
        # Python holds it apart from "get_weather", yet it is the same text.
        def __hash__(self):
            return 1

        def __eq__(self, other):
            return self is other

    params = {"type": "object", "properties": {"city": {"type": "string"}}}
    fn = {"name": "get_weather", "parameters": params}
    fn[Sneaky("name")] = "rm_rf"
    with pytest.raises(toolgram.ToolsError, match=r'tools: the key "name" is given twice'):
        toolgram.Parser("hermes", tools=[{"type": "function", "function": fn}])
    long_key = "k" * 5000
    with pytest.raises(toolgram.SettingsError) as e:
        toolgram.Parser("hermes", settings={long_key: 1, Sneaky(long_key): 2})
    assert "given twice" in str(e.value) and len(str(e.value)) < 300


def test_a_profile_file_read_lets_other_threads_run(tmp_path):
    # A FIFO with no writer yet: the read waits, but with the GIL released, so this thread
    # can write the profile while Parser() waits for it.
    import os
    fifo = tmp_path / "profile.fifo"
    os.mkfifo(fifo)
    profile = json.dumps({"name": "mine", "syntax": {"call": {"open": "<call>", "close": "</call>"},
                                                     "arguments": {"style": "json"}}})
    got = {}

    def build():
        got["parser"] = toolgram.Parser(profile_file=fifo)

    t = threading.Thread(target=build)
    t.start()
    with open(fifo, "w") as w:  # blocks until the reader opened it: needs the GIL to be free
        w.write(profile)
    t.join(timeout=30)
    assert not t.is_alive()
    assert got["parser"].profile == "mine"


# -- threads --------------------------------------------------------------------------------

def test_threads_sharing_one_parser_get_the_single_threaded_results(corpus_cases):
    cases = [c for c in corpus_cases if c.profile == "hermes" and not c.settings][:40]
    assert len(cases) >= 20
    parser = toolgram.Parser("hermes", tools=cases[0].tools)
    want = [parser.parse(c.text).to_dict() for c in cases]
    failures = []

    def hammer(seed):
        for round_ in range(25):
            order = list(range(len(cases)))
            order = order[seed % len(order):] + order[:seed % len(order)]
            for i in order:
                if parser.parse(cases[i].text).to_dict() != want[i]:
                    failures.append((seed, round_, i))
            events, result = stream_all(parser, cases[order[0]].text, 1 + seed)
            if result.to_dict() != want[order[0]]:
                failures.append((seed, round_, "stream"))

    threads = [threading.Thread(target=hammer, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_parse_releases_the_gil():
    # While one thread parses a long output, another keeps running Python: a counter it
    # increments must move during the parse.
    parser = toolgram.Parser("hermes")
    text = ("word " * 4_000_000).encode()
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=count)
    t.start()
    # On a loaded machine the counting thread may get no core during one parse (ctest runs
    # tests side by side): a few parses give it its chance; with the GIL held, none could.
    during = 0
    try:
        while counter[0] == 0:  # the counter runs (and waits on the GIL) before we parse
            pass
        for _ in range(5):
            before = counter[0]
            parser.parse(text)
            during = max(during, counter[0] - before)
            if during > 1000:
                break
    finally:
        stop.set()
        t.join()
    assert during > 1000


# -- profiles and instructions ----------------------------------------------------------------

def test_profiles_and_instruction_equal_the_cli(tmp_path):
    names = [p["name"] for p in toolgram.profiles()]
    assert names[0] == "auto" and "hermes" in names and "qwen3_coder" in names
    hermes = next(p for p in toolgram.profiles() if p["name"] == "hermes")
    assert hermes["grammars"][0] == {"grammar": "hermes", "role": "primary"}
    # Each profile's reasoning_start default, as `toolgram profiles` prints it.
    listing = run_cli("profiles")
    assert listing.returncode == 0
    cli_starts, name = {}, None
    for line in listing.stdout.decode().splitlines():
        if not line.startswith("\t"):
            name = line.split("\t")[0]
        elif line.startswith("\treasoning_start: "):
            cli_starts[name] = line.split(": ", 1)[1]
    py_starts = {p["name"]: p["reasoning_start"] for p in toolgram.profiles()}
    assert py_starts == {n: s for n, s in cli_starts.items() if n in py_starts}
    assert py_starts["hermes"] == "guess" and "outside" in py_starts.values()
    assert any(a["engine"] == "vLLM" and a["profile"] == "hermes" for a in toolgram.profile_aliases())
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([WEATHER]))
    p = run_cli("instruction", "--profile", "qwen3_coder", "--tools", str(tools))
    assert p.returncode == 0
    assert toolgram.instruction("qwen3_coder", [WEATHER]) == p.stdout.decode()


def test_warnings_do_not_fire_for_good_tools():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        toolgram.Parser("hermes", tools=[WEATHER])


def test_an_empty_tools_list_lets_no_tool_be_called_and_none_is_unvalidated():
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    closed = toolgram.Parser("hermes", tools=[]).parse(text)
    assert closed.calls == []
    assert [r["reason"] for r in closed.telemetry["rejected"]] == ["no tool may be called: the tool list is empty"]
    assert [r["code"] for r in closed.telemetry["rejected"]] == ["no_tools"]
    assert closed.telemetry["validated"] is True
    open_ = toolgram.Parser("hermes").parse(text)
    assert [c.name for c in open_.calls] == ["get_weather"]
    assert open_.telemetry["validated"] is False
    assert toolgram.Parser("hermes", tools=[WEATHER]).parse(text).telemetry["validated"] is True
