"""toolgram: tool calls from the raw text an LLM writes, read by grammar, validated by schema.

    >>> import toolgram
    >>> parser = toolgram.Parser("hermes", tools=[{"type": "function", "function": {
    ...     "name": "get_weather", "parameters": {"type": "object",
    ...     "properties": {"city": {"type": "string"}}, "required": ["city"]}}}])
    >>> result = parser.parse('<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>')
    >>> [(c.name, c.arguments) for c in result.calls]
    [('get_weather', {'city': 'Oslo'})]

The core is C++ (toolgram._toolgram); this package adds the OpenAI stream shapes
(`openai_deltas`), the serving-engine adapters (toolgram.vllm, toolgram.sglang) and
coverage across processes and machines (toolgram.distributed).
"""

from ._toolgram import (  # noqa: F401  (the public API)
    Call,
    CoverageReport,
    Event,
    Parser,
    ProfileError,
    Result,
    SettingsError,
    StreamParser,
    ToolgramError,
    ToolSchemaWarning,
    ToolsError,
    coverage,
    instruction,
    merge_reports,
    profile_aliases,
    profiles,
)

__version__ = "0.1.0"

__all__ = [
    "Call",
    "CoverageReport",
    "Event",
    "Parser",
    "ProfileError",
    "Result",
    "SettingsError",
    "StreamParser",
    "ToolgramError",
    "ToolSchemaWarning",
    "ToolsError",
    "coverage",
    "instruction",
    "merge_reports",
    "openai_deltas",
    "profile_aliases",
    "profiles",
]


def openai_deltas(events):
    """The OpenAI chat.completion.chunk deltas of a list of events, in order, leaving out
    the events that send nothing in that protocol (a call's end, a format error)."""
    return [d for d in (e.to_openai() for e in events) if d is not None]
