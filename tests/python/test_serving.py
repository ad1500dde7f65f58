"""The serving-engine adapters, without the engines: toolgram.serving's plain functions,
and the vLLM and SGLang classes built on stand-ins for the engines' types, shaped as
their documented interfaces are (vLLM: vllm/entrypoints/openai/protocol.py and
tool_parsers/abstract_tool_parser.py; SGLang: srt/function_call/core_types.py and
base_format_detector.py)."""

import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Optional

import pytest

import toolgram
from toolgram import serving, sglang_detector, vllm_plugin

WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "note": {"type": "string"}}, "required": ["city"]}}}
TEXT = ('Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo, \\"NO\\"", "note": "a: b"}}\n'
        '</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Bergen"}}\n</tool_call>')


# -- plain functions ----------------------------------------------------------------------

def test_openai_tools_reads_every_shape_an_engine_passes():
    class Model:  # a pydantic v2 model's surface
        def __init__(self, data):
            self._data = data

        def model_dump(self, exclude_none=False):
            return {k: v for k, v in self._data.items() if not (exclude_none and v is None)}

    chat = SimpleNamespace(type="function", function=SimpleNamespace(name="a", description=None, parameters={"type": "object"}))
    responses = SimpleNamespace(type="function", name="b", parameters={"type": "object"}, strict=True)
    pyd = Model({"type": "function", "function": {"name": "c", "description": "C", "parameters": None}})
    builtin = {"type": "web_search"}
    assert serving.openai_tools([chat, responses, pyd, builtin, WEATHER]) == [
        {"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "b", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "c", "description": "C"}},
        WEATHER,
    ]
    assert serving.openai_tools(None) == []


def test_spaced_json_is_what_json_dumps_writes_for_every_corpus_call(corpus_cases):
    checked = 0
    for c in corpus_cases:
        for call in toolgram.Parser(**c.parser_args()).parse(c.text).calls:
            assert serving.spaced_json(call.arguments_json) == json.dumps(call.arguments, ensure_ascii=False), c.id
            checked += 1
    assert checked > 500
    # In pieces, cut anywhere, the same.
    compact = '{"a":"x, y: \\"z\\"","b":[1,{"c":null}]}'
    spacer = serving.JsonSpacer()
    assert "".join(spacer.feed(ch) for ch in compact) == json.dumps(json.loads(compact), ensure_ascii=False)


def test_the_parser_cache_shares_parsers_and_forgets_the_oldest():
    cache = serving.ParserCache(size=2)
    a = cache.get("hermes", [WEATHER])
    assert cache.get("hermes", json.loads(json.dumps([WEATHER]))) is a
    cache.get("qwen3_coder", [WEATHER])
    cache.get("mistral", [])
    assert cache.get("hermes", [WEATHER]) is not a


def accumulate(deltas):
    """Deltas as an OpenAI client accumulates them."""
    content, calls = "", {}
    for d in deltas:
        if d is None:
            continue
        content += d.get("content") or ""
        for tc in d.get("tool_calls", []):
            slot = calls.setdefault(tc["index"], {"id": None, "name": "", "arguments": ""})
            slot["id"] = tc.get("id") or slot["id"]
            slot["name"] += tc["function"].get("name") or ""
            slot["arguments"] += tc["function"].get("arguments") or ""
    return content, [calls[i] for i in sorted(calls)]


@pytest.mark.parametrize("size", [1, 4, 33, 10_000])
def test_a_request_stream_sends_what_the_whole_answer_holds(size):
    parser = serving.ParserCache().get("hermes", [WEATHER])
    whole = serving.extracted_calls(parser.parse(TEXT))
    rs = serving.RequestStream(parser)
    pieces = [TEXT[i:i + size] for i in range(0, len(TEXT), size)]
    deltas = [rs.delta(p, finished=(i == len(pieces) - 1)) for i, p in enumerate(pieces)]
    assert rs.delta("late", finished=True) is None
    content, calls = accumulate(deltas)
    assert content == whole["content"] == "Checking."
    assert [(c["id"], c["name"], c["arguments"]) for c in calls] == [
        (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in whole["tool_calls"]]
    assert calls[0]["arguments"] == '{"city": "Oslo, \\"NO\\"", "note": "a: b"}'
    assert rs.prev_tool_call_arr == [{"name": "get_weather", "arguments": {"city": "Oslo, \"NO\"", "note": "a: b"}},
                                     {"name": "get_weather", "arguments": {"city": "Bergen"}}]
    assert rs.streamed_args_for_tool == [c["arguments"] for c in calls]
    assert rs.refused == []


def test_a_request_stream_lists_a_call_refused_after_its_announcement():
    parser = serving.ParserCache().get("hermes", [WEATHER])
    rs = serving.RequestStream(parser)
    text = '<tool_call>{"name": "get_weather", "arguments": {"note": "x"}}</tool_call>'
    deltas = [rs.delta(ch) for ch in text] + [rs.delta("", finished=True)]
    _, calls = accumulate(deltas)
    assert [c["name"] for c in calls] == ["get_weather"]  # announced: the protocol cannot take it back
    assert [r["index"] for r in rs.refused] == [0] and "city" in rs.refused[0]["reason"]
    assert rs.result.calls == []


def test_stream_ends_at_a_stop_token_or_max_tokens():
    assert serving.stream_ends([5, 2], 10, [2], None)
    assert not serving.stream_ends([5], 10, [2], None)
    assert serving.stream_ends([5], 100, [2], 100)
    assert not serving.stream_ends([5], 99, [], 100)


# -- vLLM, on stand-ins for its types ------------------------------------------------------

@dataclass
class FunctionCall:
    name: str
    arguments: str


@dataclass
class ToolCall:
    function: FunctionCall
    id: str = ""
    type: str = "function"


@dataclass
class ExtractedToolCallInformation:
    tools_called: bool
    tool_calls: list
    content: Optional[str] = None


@dataclass
class DeltaFunctionCall:
    name: Optional[str] = None
    arguments: Optional[str] = None

    def model_dump(self, exclude_none=False):
        return {k: v for k, v in vars(self).items() if not (exclude_none and v is None)}


@dataclass
class DeltaToolCall:
    index: int
    id: Optional[str] = None
    type: Optional[str] = None
    function: Any = None


@dataclass
class DeltaMessage:
    content: Optional[str] = None
    tool_calls: list = field(default_factory=list)


class ToolParser:  # vLLM's base: (tokenizer) in 0.8-0.11
    def __init__(self, tokenizer):
        self.model_tokenizer = tokenizer
        self.prev_tool_call_arr = []
        self.streamed_args_for_tool = []


class ToolParserManager:
    registered: dict = {}

    @classmethod
    def register_module(cls, name=None, force=True, module=None):
        cls.registered[name] = module


VLLM_PROTOCOL = SimpleNamespace(FunctionCall=FunctionCall, ToolCall=ToolCall, DeltaMessage=DeltaMessage,
                                DeltaToolCall=DeltaToolCall, DeltaFunctionCall=DeltaFunctionCall,
                                ExtractedToolCallInformation=ExtractedToolCallInformation)
REQUEST = SimpleNamespace(tools=[SimpleNamespace(type="function", function=SimpleNamespace(
    name="get_weather", description=None, parameters=WEATHER["function"]["parameters"]))], max_tokens=None)
EOS = 2


def vllm_stream(cls, text, size):
    """Drives a parser as vLLM's serving_chat does: a token a piece, the last one EOS."""
    parser = cls(SimpleNamespace(eos_token_id=EOS))
    pieces = [text[i:i + size] for i in range(0, len(text), size)] + [""]
    ids, out, previous = [], [], ""
    for n, piece in enumerate(pieces):
        delta_ids = [EOS] if n == len(pieces) - 1 else [100 + n]
        current = previous + piece
        out.append(parser.extract_tool_calls_streaming(previous, current, piece, list(ids), ids + delta_ids,
                                                       delta_ids, REQUEST))
        ids += delta_ids
        previous = current
    return parser, out


def test_the_vllm_parser_answers_whole_and_streamed_outputs():
    cls = vllm_plugin.make_parser_class("hermes", ToolParser, VLLM_PROTOCOL)
    whole = cls(SimpleNamespace(eos_token_id=EOS)).extract_tool_calls(TEXT, REQUEST)
    assert whole.tools_called and whole.content == "Checking."
    assert [(c.id, c.function.name, json.loads(c.function.arguments)) for c in whole.tool_calls] == [
        ("call_0", "get_weather", {"city": 'Oslo, "NO"', "note": "a: b"}), ("call_1", "get_weather", {"city": "Bergen"})]
    parser, messages = vllm_stream(cls, TEXT, 3)
    deltas = [None if m is None else {"content": m.content, "tool_calls": [
        {"index": t.index, "id": t.id, "function": t.function} for t in m.tool_calls]} for m in messages]
    content, calls = accumulate(deltas)
    assert content == whole.content
    assert [(c["id"], c["name"], c["arguments"]) for c in calls] == [
        (c.id, c.function.name, c.function.arguments) for c in whole.tool_calls]
    # What serving_chat checks at the end: the last call's arguments as json.dumps writes
    # them, less what was streamed, leaves nothing unsent.
    expected = json.dumps(parser.prev_tool_call_arr[-1]["arguments"], ensure_ascii=False)
    assert expected.replace(parser.streamed_args_for_tool[-1], "", 1) == ""


def test_the_vllm_parser_ends_a_stream_at_max_tokens_and_heals_the_cut_call():
    cls = vllm_plugin.make_parser_class("hermes", ToolParser, VLLM_PROTOCOL)
    parser = cls(SimpleNamespace(eos_token_id=EOS))
    request = SimpleNamespace(tools=REQUEST.tools, max_tokens=2)
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"'
    first = parser.extract_tool_calls_streaming("", text[:20], text[:20], [], [7], [7], request)
    last = parser.extract_tool_calls_streaming(text[:20], text, text[20:], [7], [7, 8], [8], request)
    _, calls = accumulate([None if m is None else {"content": m.content, "tool_calls": [
        {"index": t.index, "id": t.id, "function": t.function} for t in m.tool_calls]} for m in (first, last)])
    assert [(c["name"], c["arguments"]) for c in calls] == [("get_weather", '{"city": "Oslo"}')]


def test_register_names_one_vllm_parser_per_profile(monkeypatch):
    monkeypatch.setattr(vllm_plugin, "_import_vllm", lambda: (ToolParser, ToolParserManager, VLLM_PROTOCOL))
    names = vllm_plugin.register(["hermes", "qwen3_coder"])
    assert names == ["toolgram-hermes", "toolgram-qwen3_coder"]
    assert ToolParserManager.registered["toolgram-qwen3_coder"].toolgram_profile == "qwen3_coder"
    assert len(vllm_plugin.register()) == len(toolgram.profiles())


# -- SGLang, on stand-ins for its types ----------------------------------------------------

class BaseFormatDetector:
    def __init__(self):
        self._buffer = ""
        self.prev_tool_call_arr = []
        self.current_tool_id = -1
        self.streamed_args_for_tool = []


@dataclass
class ToolCallItem:
    tool_index: int
    parameters: str
    name: Optional[str] = None


@dataclass
class StreamingParseResult:
    normal_text: str = ""
    calls: list = field(default_factory=list)


SG_TOOLS = [SimpleNamespace(type="function", function=SimpleNamespace(
    name="get_weather", description=None, parameters=WEATHER["function"]["parameters"], strict=False))]


def test_the_sglang_detector_answers_whole_and_streamed_outputs():
    cls = sglang_detector.make_detector_class("hermes", BaseFormatDetector, StreamingParseResult, ToolCallItem)
    whole = cls().detect_and_parse(TEXT, SG_TOOLS)
    assert whole.normal_text == "Checking."
    assert [(c.tool_index, c.name, json.loads(c.parameters)) for c in whole.calls] == [
        (0, "get_weather", {"city": 'Oslo, "NO"', "note": "a: b"}), (1, "get_weather", {"city": "Bergen"})]
    det = cls()
    results = [det.parse_streaming_increment(TEXT[i:i + 4], SG_TOOLS) for i in range(0, len(TEXT), 4)]
    results.append(det.finish(SG_TOOLS))
    normal = "".join(r.normal_text for r in results)
    names, params = {}, {}
    for r in results:
        for item in r.calls:
            if item.name is not None:
                assert item.parameters == "" and item.tool_index not in names
                names[item.tool_index] = item.name
            else:
                params[item.tool_index] = params.get(item.tool_index, "") + item.parameters
    assert normal == "Checking."
    assert [(names[i], params[i]) for i in sorted(names)] == [(c.name, c.parameters) for c in whole.calls]
    assert det.current_tool_id == 1
    assert cls().has_tool_call(TEXT) and not cls().has_tool_call("no calls here")


def test_register_adds_sglang_detectors(monkeypatch):
    table = {}
    fake_parser = SimpleNamespace(ToolCallParserEnum=table)
    monkeypatch.setattr(sglang_detector, "_import_sglang",
                        lambda: (BaseFormatDetector, StreamingParseResult, ToolCallItem, fake_parser))
    assert sglang_detector.register(["hermes"]) == ["toolgram-hermes"]
    assert table["toolgram-hermes"]().toolgram_profile == "hermes"
