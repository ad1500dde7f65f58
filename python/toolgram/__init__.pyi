# The package's public API (the module's types are in _toolgram.pyi).
from typing import Iterable, Optional

from ._toolgram import (
    Call as Call,
    CoverageReport as CoverageReport,
    Event as Event,
    Parser as Parser,
    ProfileError as ProfileError,
    Result as Result,
    SettingsError as SettingsError,
    StreamParser as StreamParser,
    ToolgramError as ToolgramError,
    ToolSchemaWarning as ToolSchemaWarning,
    ToolsError as ToolsError,
    coverage as coverage,
    instruction as instruction,
    merge_reports as merge_reports,
    profile_aliases as profile_aliases,
    profiles as profiles,
    JSON,
)

__version__: str

def openai_deltas(events: Iterable[Event]) -> list[dict[str, JSON]]: ...
