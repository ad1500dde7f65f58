"""A vLLM tool-parser plug-in: one parser per toolgram profile, named `toolgram-PROFILE`.

    vllm serve MODEL --enable-auto-tool-choice \\
        --tool-parser-plugin "$(python3 -c 'import toolgram.vllm_plugin as p; print(p.__file__)')" \\
        --tool-call-parser toolgram-hermes

vLLM imports this file by its path under the module name `vllm_plugin`, so it imports
toolgram absolutely. Written against vLLM's ToolParser interface as its sources define it
(vllm/entrypoints/openai/tool_parsers/abstract_tool_parser.py, later vllm/tool_parsers/):
`ToolParser(tokenizer)` (or `(tokenizer, tools)`, as the 0.18 documentation has it),
`extract_tool_calls(model_output, request)`, `extract_tool_calls_streaming(previous_text,
current_text, delta_text, previous_token_ids, current_token_ids, delta_token_ids,
request)`, `ToolParserManager.register_module(name=, module=, force=)`. Not run inside vLLM here: every
decision is in toolgram.serving, tested without the engine; this file only converts.
"""

from __future__ import annotations

import logging
from typing import Any, Optional, Sequence

from toolgram import profiles
from toolgram.serving import ParserCache, RequestStream, extracted_calls, openai_tools, stream_ends

logger = logging.getLogger("toolgram.vllm")
_parsers = ParserCache()


def _import_vllm():
    """vLLM's classes, wherever the running version keeps them."""
    try:
        from vllm.tool_parsers.abstract_tool_parser import ToolParser, ToolParserManager  # newest layout
    except ImportError:
        from vllm.entrypoints.openai.tool_parsers.abstract_tool_parser import ToolParser, ToolParserManager
    protocol = None
    for name in ("vllm.entrypoints.openai.engine.protocol", "vllm.entrypoints.openai.protocol"):
        try:
            protocol = __import__(name, fromlist=["DeltaMessage"])
            break
        except ImportError:
            continue
    if protocol is None:
        raise ImportError("toolgram: cannot find vLLM's DeltaMessage (vllm.entrypoints.openai.protocol)")
    return ToolParser, ToolParserManager, protocol


def stop_token_ids(tokenizer) -> list[int]:
    ids = []
    for attr in ("eos_token_id",):
        v = getattr(tokenizer, attr, None)
        if isinstance(v, int):
            ids.append(v)
        elif isinstance(v, (list, tuple)):
            ids.extend(x for x in v if isinstance(x, int))
    return ids


def request_max_tokens(request) -> Optional[int]:
    for attr in ("max_completion_tokens", "max_tokens"):
        v = getattr(request, attr, None)
        if isinstance(v, int):
            return v
    return None


def make_parser_class(profile: str, ToolParser, protocol):
    """The ToolParser subclass for one profile: per-instance state is one request's stream."""

    class ToolgramToolParser(ToolParser):
        toolgram_profile = profile

        def __init__(self, tokenizer, tools: Optional[Sequence[Any]] = None, *args, **kwargs):
            try:
                super().__init__(tokenizer, tools, *args, **kwargs)  # vLLM that passes the tools
            except TypeError:
                super().__init__(tokenizer)
            self._stops = stop_token_ids(tokenizer)
            self._stream: Optional[RequestStream] = None

        def _parser(self, request):
            return _parsers.get(profile, openai_tools(getattr(request, "tools", None)))

        def extract_tool_calls(self, model_output: str, request, *args, **kwargs):
            info = extracted_calls(self._parser(request).parse(model_output))
            return protocol.ExtractedToolCallInformation(
                tools_called=info["tools_called"],
                tool_calls=[
                    protocol.ToolCall(id=c["id"], type="function",
                                      function=protocol.FunctionCall(**c["function"]))
                    for c in info["tool_calls"]
                ],
                content=info["content"],
            )

        def extract_tool_calls_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                         current_token_ids, delta_token_ids, request):
            if self._stream is None:
                self._stream = RequestStream(self._parser(request))
            ends = stream_ends(delta_token_ids, len(current_token_ids), self._stops, request_max_tokens(request))
            delta = self._stream.delta(delta_text, finished=ends)
            # What the engine reads at the end of a stream, kept as its own parsers keep it.
            self.prev_tool_call_arr = self._stream.prev_tool_call_arr
            self.streamed_args_for_tool = self._stream.streamed_args_for_tool
            for r in self._stream.refused:
                logger.warning("toolgram: call %d (%s) refused after it was announced: %s",
                               r["index"], r["name"], r["reason"])
            self._stream.refused.clear()
            if delta is None:
                return None
            calls = [
                protocol.DeltaToolCall(
                    index=c["index"], id=c.get("id"), type=c.get("type"),
                    function=protocol.DeltaFunctionCall(**c["function"]).model_dump(exclude_none=True),
                )
                for c in delta.get("tool_calls", [])
            ]
            return protocol.DeltaMessage(content=delta.get("content"), tool_calls=calls)

    ToolgramToolParser.__name__ = ToolgramToolParser.__qualname__ = "Toolgram_" + profile
    return ToolgramToolParser


def register(names: Optional[Sequence[str]] = None) -> list[str]:
    """Registers `toolgram-PROFILE` with vLLM for each profile (all by default); returns the
    names registered."""
    ToolParser, ToolParserManager, protocol = _import_vllm()
    registered = []
    for name in names or [p["name"] for p in profiles()]:
        cls = make_parser_class(name, ToolParser, protocol)
        ToolParserManager.register_module(name="toolgram-" + name, module=cls, force=True)
        registered.append("toolgram-" + name)
    return registered


try:  # loaded by --tool-parser-plugin: register; imported without vLLM: offer register()
    _import_vllm()
except ImportError:
    pass
else:
    register()
