"""Shared by the Python package's tests: where the CLI and the corpus are, and the corpus
cases as the C++ golden test reads them (tests/unit/corpus_cases.hpp): each
corpus/FOLDER/CASE.txt with its CASE.expect.json naming the profile (default: the
folder's, else auto) or a profile file beside it, the tools and the settings.

Run by ctest (toolgram.python) with PYTHONPATH=build/python and TOOLGRAM_CLI=build/toolgram;
by hand: PYTHONPATH=build/python python3 -m pytest tests/python.
"""

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"


def cli_path() -> Path:
    return Path(os.environ.get("TOOLGRAM_CLI", ROOT / "build" / "toolgram"))


def run_cli(*args: str, input: Optional[bytes] = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli_path()), *args], input=input, capture_output=True, check=False)


@dataclass
class Case:
    id: str
    path: Path
    text: bytes
    profile: Optional[str]
    profile_file: Optional[Path]
    tools: Optional[list]  # None: no tool list ("tools": "none")
    settings: dict = field(default_factory=dict)

    def parser_args(self) -> dict[str, Any]:
        args: dict[str, Any] = {"tools": self.tools, "settings": self.settings or None}
        if self.profile_file is not None:
            args["profile_file"] = str(self.profile_file)
        else:
            args["profile"] = self.profile
        return args


def _load_cases() -> list[Case]:
    import toolgram  # the package under test, on PYTHONPATH

    profiles = {p["name"] for p in toolgram.profiles()}
    default_tools = json.loads((CORPUS / "tools.json").read_text())
    cases = []
    for txt in sorted(CORPUS.glob("*/*.txt")):
        spec = json.loads(txt.with_name(txt.stem + ".expect.json").read_text())
        tools = spec.get("tools", "default")
        tools = None if tools == "none" else default_tools if tools == "default" else tools
        profile_file = txt.parent / spec["profile_file"] if "profile_file" in spec else None
        profile = spec.get("profile") or (txt.parent.name if txt.parent.name in profiles else "auto")
        cases.append(Case(f"{txt.parent.name}/{txt.stem}", txt, txt.read_bytes(), None if profile_file else profile,
                          profile_file, tools, spec.get("settings", {})))
    return cases


_cases: Optional[list[Case]] = None


@pytest.fixture(scope="session")
def corpus_cases() -> list[Case]:
    global _cases
    if _cases is None:
        _cases = _load_cases()
    return _cases


@pytest.fixture(scope="session")
def default_tools() -> list:
    return json.loads((CORPUS / "tools.json").read_text())
