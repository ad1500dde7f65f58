"""An SGLang function-call detector per toolgram profile, named `toolgram-PROFILE`.

SGLang has no plug-in flag: detectors are looked up in
`FunctionCallParser.ToolCallParserEnum`, a dict from name to class. `register()` adds
toolgram's there, so a launcher script calls it before starting the server:

    import toolgram.sglang_detector, sglang.launch_server ...
    toolgram.sglang_detector.register()
    # then launch as usual, with --tool-call-parser toolgram-hermes

Written against SGLang's BaseFormatDetector as its sources define it (python/sglang/srt/
function_call/base_format_detector.py: `detect_and_parse(text, tools)`,
`parse_streaming_increment(new_text, tools)`, `has_tool_call(text)`, results as
`StreamingParseResult(normal_text, calls=[ToolCallItem(tool_index, name, parameters)])`),
with `finish(tools)` for versions that call it. Not run inside SGLang here: every decision
is in toolgram.serving, tested without the engine; this file only converts. `tool_index`
is the call's place in the message (0, 1, ...), as SGLang's streaming path uses it.
"""

from __future__ import annotations

from typing import Optional, Sequence

from toolgram import profiles
from toolgram.serving import ParserCache, RequestStream, extracted_calls, openai_tools

_parsers = ParserCache()


def _import_sglang():
    from sglang.srt.function_call.base_format_detector import BaseFormatDetector
    from sglang.srt.function_call.core_types import StreamingParseResult, ToolCallItem
    from sglang.srt.function_call.function_call_parser import FunctionCallParser
    return BaseFormatDetector, StreamingParseResult, ToolCallItem, FunctionCallParser


def detector_items(delta: Optional[dict]) -> tuple[str, list[dict]]:
    """A RequestStream delta as SGLang's (normal_text, [{"tool_index", "name", "parameters"}]):
    a call's first item carries its name with parameters "", later ones argument fragments
    (name None)."""
    if delta is None:
        return "", []
    items = []
    for c in delta.get("tool_calls", []):
        fn = c["function"]
        if "name" in fn:
            items.append({"tool_index": c["index"], "name": fn["name"], "parameters": ""})
        if fn.get("arguments"):
            items.append({"tool_index": c["index"], "name": None, "parameters": fn["arguments"]})
    return delta.get("content", ""), items


def make_detector_class(profile: str, BaseFormatDetector, StreamingParseResult, ToolCallItem):
    class ToolgramDetector(BaseFormatDetector):
        toolgram_profile = profile

        def __init__(self, *args, **kwargs):
            super().__init__()
            self._stream: Optional[RequestStream] = None

        def _parser(self, tools):
            return _parsers.get(profile, openai_tools(tools))

        def _result(self, normal_text: str, items: list[dict]):
            return StreamingParseResult(normal_text=normal_text, calls=[ToolCallItem(**i) for i in items])

        def has_tool_call(self, text: str) -> bool:
            return bool(self._parser(None).parse(text).telemetry["saw_tool_syntax"])

        def detect_and_parse(self, text: str, tools):
            info = extracted_calls(self._parser(tools).parse(text))
            items = [{"tool_index": i, "name": c["function"]["name"], "parameters": c["function"]["arguments"]}
                     for i, c in enumerate(info["tool_calls"])]
            return self._result(info["content"] or "", items)

        def parse_streaming_increment(self, new_text: str, tools):
            if self._stream is None:
                self._stream = RequestStream(self._parser(tools))
            normal, items = detector_items(self._stream.delta(new_text))
            self.prev_tool_call_arr = self._stream.prev_tool_call_arr
            self.streamed_args_for_tool = self._stream.streamed_args_for_tool
            self.current_tool_id = len(self.prev_tool_call_arr) - 1
            return self._result(normal, items)

        def finish(self, tools=None):
            if self._stream is None:
                return self._result("", [])
            return self._result(*detector_items(self._stream.delta("", finished=True)))

        def structure_info(self):
            raise NotImplementedError("toolgram detectors do not constrain decoding (no structural tag)")

        def build_ebnf(self, tools):
            raise NotImplementedError("toolgram detectors do not constrain decoding (no EBNF)")

        def supports_structural_tag(self) -> bool:
            return False

    ToolgramDetector.__name__ = ToolgramDetector.__qualname__ = "Toolgram_" + profile
    return ToolgramDetector


def register(names: Optional[Sequence[str]] = None) -> list[str]:
    """Adds `toolgram-PROFILE` to SGLang's detector table for each profile (all by default)."""
    BaseFormatDetector, StreamingParseResult, ToolCallItem, FunctionCallParser = _import_sglang()
    registered = []
    for name in names or [p["name"] for p in profiles()]:
        FunctionCallParser.ToolCallParserEnum["toolgram-" + name] = make_detector_class(
            name, BaseFormatDetector, StreamingParseResult, ToolCallItem)
        registered.append("toolgram-" + name)
    return registered
