"""What a game's ladder is to the records: the one typed way they ask a game for its ranks.

The records keep every game's results alike (a place, a win, a score and the seat's details) and know
no game's ranks, crashes or titles. A game that keeps ranks gives its game class a `ladder`, an
object with the members below (the Trident's is `kikimimi.games.trident.ladder.LADDER`); the records
ask it for everything that is that game's own:

- recording: what of an `Outcome` a seat's result keeps (`seat_details`), which results the game's
  rules cannot have (`result_problems`), whether the 1st place won when a result names no
  winner (`first_wins`), the marks a typed result may carry and the fields a sheet may give
  (`result_marks`, `result_fields`, `score_name`);
- ranks: a stored result as the ladder's own result (`result`), one meeting's part
  (`meeting_result`), a player's history walked (`replay`, its `.status` and `.changes`), and the
  same status from packed games (`pack`, `unpack`, `packed_status`) for standings of many players;
- meetings: how they are played (`meeting_setup`), who chooses a seat first (`seat_order`), what
  counts as a win and how players stand in a meeting (`meeting_win`, `standing_key`,
  `standing_figures`, `standing_notes`), how a player may be addressed (`title_forms`, the first the default);
- showing a player: `status_figures`, `status_lines`.

Nothing here is any game's: a test checks that the Trident's ladder meets this protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from kikimimi.games.base import Outcome

Result = TypeVar("Result")  # the ladder's own result of one game
Meeting = TypeVar("Meeting")  # the ladder's own part of one player in one meeting
Status = TypeVar("Status")  # where a player stands on the ladder
Status_co = TypeVar("Status_co", covariant=True)

# A finished meeting as `packed_status` reads it: (order, meeting id, kind, won the contest, the player's
# games packed one character a game in play order). `order` sorts meetings as they were held.
PackedMeeting = tuple[tuple[Any, ...], int, str, bool, str]


class StoredResult(Protocol):
    """One seat's result as the records keep it (the records' `PlayerResult`)."""

    @property
    def player(self) -> str: ...
    @property
    def place(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def score(self) -> int | None: ...
    @property
    def details(self) -> Mapping[str, Any]: ...


class Standing(Protocol):
    """One player's line in a meeting's standings (the records' `Standing`)."""

    @property
    def wins(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def place_sum(self) -> int: ...
    @property
    def counts(self) -> Mapping[str, int]: ...


class LadderHistory(Protocol[Status_co]):
    """A player's history walked: where they stand and every change, meeting by meeting."""

    @property
    def status(self) -> Status_co: ...
    @property
    def changes(self) -> Sequence[Any]: ...
    def changes_in(self, meeting_id: int) -> list[Any]: ...


@runtime_checkable
class Ladder(Protocol[Result, Meeting, Status]):
    """A game's ranks from that game's stored results (see the module)."""

    title_forms: tuple[str, ...]  # how a player may be addressed on this ladder; the first is the default
    meeting_setup: Mapping[str, Any]  # the set-up a meeting's games are played with
    result_marks: Mapping[str, str]  # a typed result's mark after a name -> the flag detail it sets
    result_fields: Mapping[str, type]  # a score sheet's own result fields, kept in the result's details
    score_name: str  # the game's word for a score on a sheet ("" for none beside `score`)
    standing_columns: tuple[str, ...]  # which of `standing_figures` a standings table shows, in order

    # -- recording --------------------------------------------------------------------------------

    def seat_details(self, outcome: Outcome, seats: Sequence[int]) -> dict[int, dict[str, Any]]:
        """What the game keeps on its seats' results beyond the outcome's per-seat details, by seat
        (a plain detail of the outcome that is the game's result field, such as who crashed, is never
        kept as the game's). ValueError saying why for an outcome these seats cannot have."""
        ...

    def result_problems(self, results: Sequence[StoredResult]) -> list[str]:
        """Why the game's rules cannot have given these results (a sentence each; empty: they can)."""
        ...

    def first_wins(self, details: Sequence[Mapping[str, Any]]) -> bool:
        """Whether the 1st place won a game whose entry names no winner, from each result's details."""
        ...

    # -- ranks ----------------------------------------------------------------------------------

    def result(self, place: int, won: bool, score: int | None, details: Mapping[str, Any]) -> Result: ...

    def pack(self, result: Result) -> str:
        """One game as one character (a meeting's games in play order are a string)."""
        ...

    def unpack(self, code: str) -> Result: ...

    def meeting_result(self, meeting_id: int, kind: str, games: tuple[Result, ...], order: tuple[Any, ...],
                       won_contest: bool) -> Meeting: ...

    def replay(self, history: Iterable[Meeting], *, name: str = "", title_form: str = "") -> LadderHistory[Status]: ...

    def packed_status(self, meetings: Iterable[PackedMeeting], *, name: str = "", title_form: str = "") -> Status:
        """`replay(...).status` from each meeting's packed games."""
        ...

    # -- meetings -------------------------------------------------------------------------------

    def seat_order(self, statuses: Sequence[Status]) -> list[str]:
        """Player names in the order they choose their seats."""
        ...

    def meeting_win(self, place: int, won: bool) -> bool: ...

    def standing_key(self, standing: Standing) -> tuple[Any, ...]: ...

    def standing_figures(self, standing: Standing) -> dict[str, int]:
        """The game's own figures of a meeting standing, by the names it shows them under."""
        ...

    def standing_notes(self, standing: Standing) -> list[str]:
        """What a standing's sentence adds after its wins and score ("2 crashes")."""
        ...

    # -- showing a player's status -------------------------------------------------------------

    def status_figures(self, status: Status) -> dict[str, int]:
        """A status's figures for a table of players, by column (wins first)."""
        ...

    def status_lines(self, status: Status) -> list[str]:
        """A player's status in full, a line each (`kikimimi players show`)."""
        ...


AnyLadder = Ladder[Any, Any, Any]
