"""The project's pages stand on their own (issue 21, point 22): no page, deck file or help text cites a file
that is not in the repository, and the commands they name are commands that exist, with what they need."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from kikimimi.app.cli import build_parser

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "rules").glob("*.md")),
         *sorted((ROOT / "devices" / "decks").glob("*.toml"))]
OUTSIDE = re.compile(r"\b(?:spec|seeds)/[\w./-]+")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_a_page_cites_no_file_outside_the_repository(page):
    assert not OUTSIDE.findall(page.read_text(encoding="utf-8")), page


def test_replay_help_stands_alone(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["replay", "--help"])
    text = capsys.readouterr().out
    assert not OUTSIDE.findall(text), text
    assert '{"scan": "hand:1", "piece": "heart-1"}' in text  # the format is said where it is asked for


def test_every_kikimimi_command_a_page_names_exists_with_its_required_options():
    commands = _subparsers(build_parser())
    wrong = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for named in re.findall(r"`kikimimi ([a-z][\w-]*(?: [a-z][\w-]*)?)([^`]*)`", text):
            words, rest = named[0].split(), named[1]
            parser = commands.get(words[0])
            if parser is None:
                wrong.append(f"{page.name}: `kikimimi {words[0]}` is no command")
                continue
            sub = _subparsers(parser)
            if sub and len(words) > 1:
                if words[1] not in sub:
                    wrong.append(f"{page.name}: `kikimimi {words[0]} {words[1]}` is no command")
                    continue
                parser = sub[words[1]]
            required = [a.option_strings[0] for a in parser._actions if a.required and a.option_strings]
            # A command named in passing is a name; one shown with options is a command line to copy: whole.
            missing = [option for option in required if option not in rest] if "--" in rest else []
            if missing:
                wrong.append(f"{page.name}: `kikimimi {named[0]}{rest}` lacks {missing}")
    assert not wrong, "\n".join(wrong)


def test_the_ranks_page_knows_the_live_table_exists():
    assert "until the live table exists" not in " ".join((ROOT / "docs/rules/ranks.md").read_text().split()).lower()
