"""What the serving-engine adapters share, in plain Python with no engine imported, so
every piece of their logic is tested with pytest against the engines' documented data
shapes (tests/python/test_serving.py):

- `openai_tools`: a request's tools (engine objects or dicts) as OpenAI tool dicts;
- `ParserCache`: one compiled Parser per (profile, tools), shared by requests;
- `RequestStream`: one request's stream, from the text deltas an engine hands a tool
  parser to the deltas it sends back (content, tool-call name, argument fragments), and
  the bookkeeping the engines read at the end of a stream;
- `spaced_json`/`JsonSpacer`: arguments JSON in the form `json.dumps(..., ensure_ascii=False)`
  writes, which vLLM compares what was streamed against when a stream ends.

The engine classes (toolgram.vllm_plugin, toolgram.sglang_detector) only translate these
dicts into the engine's own types.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any, Iterable, Optional

from toolgram import Parser, StreamParser

# The engines run their own reasoning parser before the tool parser and hand it the rest,
# so the text starts outside reasoning (and content streams from the first token), and a
# reasoning block still in it is left in the content where the model wrote it. toolgram
# still finds such blocks, so a call written inside one is judged as such.
ENGINE_SETTINGS = {"reasoning_format": "in_content", "reasoning_start": "outside"}


def _as_dict(obj: Any) -> Any:
    """A pydantic model (v2 or v1), a plain object with __dict__, or data, as data."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, dict):
        return {k: _as_dict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_as_dict(v) for v in obj]
    for method in ("model_dump", "dict"):
        f = getattr(obj, method, None)
        if callable(f):
            try:
                return _as_dict(f(exclude_none=True))
            except TypeError:
                return _as_dict(f())
    if hasattr(obj, "__dict__"):
        return {k: _as_dict(v) for k, v in vars(obj).items() if not k.startswith("_") and v is not None}
    raise TypeError(f"cannot read a tool from {type(obj).__name__}")


def openai_tools(tools: Optional[Iterable[Any]]) -> list[dict]:
    """A request's tools as OpenAI tool dicts: {"type": "function", "function": {"name",
    "description"?, "parameters"?}}. Takes chat-completions tools (vLLM's
    ChatCompletionToolsParam, SGLang's Tool: `.function.name`, `.function.parameters`),
    Responses-API function tools (`.name`, `.parameters` at the top) and dicts of either."""
    out = []
    for tool in tools or []:
        d = _as_dict(tool)
        if not isinstance(d, dict):
            raise TypeError("a tool must be an object")
        if d.get("type", "function") != "function":
            continue  # a built-in tool (web search, ...) is not called by name in text
        fn = d.get("function") if isinstance(d.get("function"), dict) else d
        entry = {"name": fn.get("name")}
        if fn.get("description") is not None:
            entry["description"] = fn["description"]
        if fn.get("parameters") is not None:
            entry["parameters"] = fn["parameters"]
        out.append({"type": "function", "function": entry})
    return out


class ParserCache:
    """Compiled Parsers by (profile, tools), least recently used dropped past `size`: a
    Parser compiles every tool's schema once, and an engine serves the same tools to many
    requests. Parsers are immutable, so requests on any thread share them."""

    def __init__(self, size: int = 64):
        self._size = size
        self._parsers: OrderedDict[tuple[str, str], Parser] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, profile: str, tools: list[dict]) -> Parser:
        key = (profile, json.dumps(tools, sort_keys=True, ensure_ascii=False))
        with self._lock:
            parser = self._parsers.get(key)
            if parser is not None:
                self._parsers.move_to_end(key)
                return parser
        # An empty list is a list: a request that declares no tools may call none.
        parser = Parser(profile, tools=tools, settings=ENGINE_SETTINGS)
        with self._lock:
            self._parsers[key] = parser
            while len(self._parsers) > self._size:
                self._parsers.popitem(last=False)
        return parser


class JsonSpacer:
    """Compact JSON (toolgram's arguments text), fed in pieces, written as
    `json.dumps(value, ensure_ascii=False)` writes it: a space after each ':' and ','
    outside strings. The pieces out concatenate to the whole, as the pieces in do."""

    def __init__(self) -> None:
        self._in_string = False
        self._escaped = False

    def feed(self, piece: str) -> str:
        out = []
        for ch in piece:
            out.append(ch)
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                elif ch == "\\":
                    self._escaped = True
                elif ch == '"':
                    self._in_string = False
            elif ch == '"':
                self._in_string = True
            elif ch in ",:":
                out.append(" ")
        return "".join(out)


def spaced_json(compact: str) -> str:
    return JsonSpacer().feed(compact)


def arguments_text(call) -> str:
    """A call's arguments as the adapters send them (json.dumps' spacing, UTF-8 kept)."""
    return spaced_json(call.arguments_json)


def extracted_calls(result) -> dict:
    """A whole output's result as an engine's non-streaming answer:
    {"tools_called", "tool_calls": [{"id", "type", "function": {"name", "arguments"}}],
    "content"} (content None when empty, as OpenAI's message has it)."""
    calls = [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments_text(c)}}
        for c in result.calls
    ]
    return {"tools_called": bool(calls), "tool_calls": calls, "content": result.content or None}


class RequestStream:
    """One request's stream: text deltas in, the delta to send out.

    `delta(text, finished)` feeds the text and returns {"content"?, "tool_calls"?} or
    None when nothing became certain; with `finished` it ends the stream, so the held
    tail (a closer, trailing text, a call healed at max_tokens) goes out too. Each
    tool_calls entry is {"index", "id"?, "type"?, "function": {"name"?, "arguments"?}}:
    a call's first entry carries its id and name, the next ones argument fragments that
    concatenate to its arguments JSON. Indices count the calls announced and are never
    reused, so a call refused after its announcement (the protocol cannot withdraw it)
    does not collide with the next; it is listed in `refused`.

    Also kept as the engines' own parsers keep them: `prev_tool_call_arr` ([{"name",
    "arguments"}], a call's arguments once it is complete) and `streamed_args_for_tool`
    (the argument text sent per call), which vLLM reads when a stream ends.
    """

    def __init__(self, parser: Parser):
        self._stream = StreamParser(parser)
        self._spacers: dict[int, JsonSpacer] = {}
        self.finished = False
        self.result = None  # the Result, once finished
        self.refused: list[dict] = []  # [{"index", "name", "reason"}]
        self.prev_tool_call_arr: list[dict] = []
        self.streamed_args_for_tool: list[str] = []

    def delta(self, text: str, finished: bool = False) -> Optional[dict]:
        if self.finished:
            return None
        events = self._stream.feed(text) if text else []
        if finished:
            last, self.result = self._stream.finish()
            events = list(events) + list(last)
            self.finished = True
        return self._delta_of(events)

    def _delta_of(self, events) -> Optional[dict]:
        content = []
        calls: dict[int, dict] = {}
        for e in events:
            if e.kind == "content":
                content.append(e.text)
                continue
            if e.kind not in ("call_begin", "call_arguments", "call_end"):
                continue  # reasoning stays in content (ENGINE_SETTINGS); a format error sends nothing
            i = e.openai_index
            if e.kind == "call_begin":
                self._spacers[i] = JsonSpacer()
                while len(self.prev_tool_call_arr) <= i:
                    self.prev_tool_call_arr.append({})
                    self.streamed_args_for_tool.append("")
                self.prev_tool_call_arr[i] = {"name": e.name}
                calls[i] = {"index": i, "id": e.id, "type": "function", "function": {"name": e.name}}
            elif e.kind == "call_arguments":
                piece = self._spacers[i].feed(e.text)
                self.streamed_args_for_tool[i] += piece
                entry = calls.setdefault(i, {"index": i, "function": {}})
                entry["function"]["arguments"] = entry["function"].get("arguments", "") + piece
            elif e.call is not None:
                self.prev_tool_call_arr[i] = {"name": e.name, "arguments": e.call.arguments}
            else:
                self.refused.append({"index": i, "name": e.name, "reason": e.rejection})
        out: dict[str, Any] = {}
        if content:
            out["content"] = "".join(content)
        if calls:
            out["tool_calls"] = [calls[i] for i in sorted(calls)]
        return out or None


def stream_ends(delta_token_ids: Iterable[int], total_tokens: int, stop_token_ids: Iterable[int],
                max_tokens: Optional[int]) -> bool:
    """Whether this delta is a stream's last, as far as a tool parser can tell: it holds a
    stop token, or the output reached max_tokens. (An engine's tool-parser interface has no
    end-of-stream call; a stream stopped by a stop string is not seen to end here, and its
    held tail, at most a marker's length of text, is not sent.)"""
    stops = set(stop_token_ids)
    if stops and any(t in stops for t in delta_token_ids):
        return True
    return max_tokens is not None and total_tokens >= max_tokens
