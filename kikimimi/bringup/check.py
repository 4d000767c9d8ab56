"""`kikimimi bringup --check`: the hardware acceptance check a club runs on its own table.

1. Readers: every configured reader opens and reads (within `ready_timeout`).
2. The deck walk: each tag of the deck is asked for on its role's reader (a piece on the field reader,
   seat N's control tag on hand:N), and each read is counted and timed from the prompt: read on its
   role, read on another reader, another tag, or missed. Simulated readers are tapped by the check.
3. Outputs: each output says which it is on its own device and channel, and must report `ok`.
4. Storage: the journal, the records and the data folder (voice packs) must outlive a reboot; one on RAM
   or an overlay (a Pi's overlay root) is a warning, not a failure: the table plays, the journal is lost.

The report (pass/fail per item, counts, times) is printed and written to a file.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kikimimi.bringup.audiotest import audio_test
from kikimimi.bringup.session import Bringup
from kikimimi.bringup.storage import forgets, mount_of
from kikimimi.devices.deck import Deck
from kikimimi.paths import data_home


@dataclass(frozen=True)
class Step:
    """One tag of the walk: which tag, its UID, and the reader it is asked on."""

    tag: str
    uid: str
    role: str


@dataclass
class Result:
    section: str  # reader | tag | output
    name: str
    ok: bool
    detail: str
    seconds: float | None = None
    warning: bool = False  # ok, but said: the table works and something will be lost (a journal in RAM)


@dataclass
class CheckReport:
    results: list[Result] = field(default_factory=list)
    started: str = ""

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.ok for r in self.results)

    def of(self, section: str) -> list[Result]:
        return [r for r in self.results if r.section == section]

    def text(self) -> str:
        lines = [f"kikimimi hardware acceptance check, {self.started}: {'PASS' if self.passed else 'FAIL'}"]
        for section, title in (("reader", "readers"), ("tag", "deck walk"), ("output", "outputs"),
                               ("storage", "storage")):
            results = self.of(section)
            if not results:
                lines.append(f"{title}: none checked")
                continue
            good = sum(r.ok and not r.warning for r in results)
            head = f"{title}: {good} of {len(results)} ok"
            warned = sum(r.warning for r in results)
            head += f", {warned} WARNING" if warned else ""
            times = [r.seconds for r in results if r.ok and r.seconds is not None]
            if times:
                head += (f"; prompt to read p50 {statistics.median(times) * 1000:.0f} ms, "
                         f"max {max(times) * 1000:.0f} ms")
            lines.append(head)
            for r in results:
                took = f" ({r.seconds * 1000:.0f} ms)" if r.seconds is not None else ""
                mark = "WARN" if r.warning else "ok  " if r.ok else "FAIL"
                lines.append(f"  {mark} {r.name}: {r.detail}{took}")
        return "\n".join(lines) + "\n"

    def json(self) -> str:
        return json.dumps({"passed": self.passed, "started": self.started,
                           "results": [asdict(r) for r in self.results]}, ensure_ascii=False)


def walk_plan(deck: Deck, roles: list[str], limit: int | None = None) -> list[Step]:
    """Every tag of the deck on its role's reader: seat N's copy of a control tag on hand:N (the field
    reader where there is no such reader), every other tag on the field reader (else the first reader)."""
    by_tag: dict[str, list[str]] = {}
    for uid, tag in deck.tags.items():
        by_tag.setdefault(tag, []).append(uid)
    home = "field" if "field" in roles else roles[0]
    steps = []
    for tag, uids in by_tag.items():
        if len(uids) == 1:
            steps.append(Step(tag, uids[0], home))
            continue
        for seat, uid in enumerate(sorted(uids), start=1):
            role = f"hand:{seat}"
            steps.append(Step(tag, uid, role if role in roles else home))
    return steps[:limit] if limit is not None else steps


def run_check(session: Bringup, *, walk: int | None = None, ready_timeout: float = 10.0,
              tag_timeout: float = 20.0, prompt: Callable[[Step], None] = lambda step: None) -> CheckReport:
    report = CheckReport(started=time.strftime("%Y-%m-%d %H:%M:%S"))
    config = session.config
    roles = [s.role for s in config.readers]
    simulated = {s.role for s in config.readers if s.protocol == "sim"}

    # 1. readers
    deadline = time.monotonic() + ready_timeout
    while time.monotonic() < deadline and not all(r.status == "ok" for r in session.rows()):
        session.poll(timeout=0.1)
    ready = set()
    for row in session.rows():
        ok = row.status == "ok"
        ready |= {row.role} if ok else set()
        report.results.append(Result("reader", f"{row.role} ({row.path})", ok, f"{row.status}: {row.detail}"))

    # 2. the deck walk
    while session.poll(timeout=0.05) is not None:
        pass  # taps before the walk (a tag left on a reader) are not answers
    for step in walk_plan(config.deck, roles, walk):
        name = f"{step.tag} on {step.role}"
        if step.role not in ready:
            report.results.append(Result("tag", name, False, f"not asked: reader {step.role} is not ok"))
            continue
        prompt(step)
        asked = time.monotonic()
        if step.role in simulated:
            session.hub.simulated(step.role).tap_and_remove(step.uid)
        report.results.append(_await(session, step, name, asked, tag_timeout))

    # 3. outputs: each says which it is, on its own device and channel
    for check in audio_test(session.voice):
        report.results.append(Result("output", check.output, check.status == "ok",
                                     f"{check.status}: said \"{check.text}\" ({check.detail})"))

    # 4. storage: what must outlive a reboot
    report.results += storage_results(config.journal)
    return report


def storage_results(journal: Path) -> list[Result]:
    """The journal's folder (its outbox, code file and lock beside it), the records and the data folder:
    each on a file system that keeps its files over a reboot, or a warning that says where it lives."""
    places = {"journal": Path(journal), "data folder (records, voice packs)": data_home()}
    results = []
    for name, path in places.items():
        problem = forgets(path)
        mount = mount_of(path)
        where = f"{path} on {mount.fstype} at {mount.point}" if mount else f"{path}"
        results.append(Result("storage", name, True, problem or f"{where}: kept over a reboot",
                              warning=problem is not None))
    return results


def _await(session: Bringup, step: Step, name: str, asked: float, timeout: float) -> Result:
    end = asked + timeout
    while time.monotonic() < end:
        heard = session.poll(timeout=min(0.2, max(0.0, end - time.monotonic())))
        if heard is None:
            continue
        took = time.monotonic() - asked
        if heard.uid == step.uid and heard.role == step.role:
            return Result("tag", name, True, f"read (uid {heard.uid})", took)
        if heard.uid == step.uid:
            return Result("tag", name, False, f"read on {heard.role} instead (uid {heard.uid})", took)
        what = heard.tag_id or "a tag not in the deck"
        return Result("tag", name, False, f"{what} (uid {heard.uid}) read on {heard.role} instead", took)
    return Result("tag", name, False, f"not read within {timeout:g} s")


def default_report_path(data_home: Path) -> Path:
    return data_home / f"bringup-check-{time.strftime('%Y%m%d-%H%M%S')}.txt"
