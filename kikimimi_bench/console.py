"""Web console latency: an action on the page to its journaled step shown back, and a reader's tap to the page.

A real `kikimimi play --web` on the simulated table (text only) in its own process and data folder, and
Debian's headless Chromium (through Playwright) logged in with the evening's code. Measured in the page
(performance.now()): a touch on the virtual table's piece, or on the undo confirmation, to the page drawn
with the table's step (the page's step count changed after its whole redraw); pieces and undos alternate,
so the game stays in its deal and every step is journaled. Then taps on the table's simulated reader (hub,
deck, loop, journal, as hardware), made from this process, to the page showing them (the same clock: the
browser's timeOrigin + now() against time.time()). CPU time of the table's process and of this one are
printed beside wall time, and the browser's (Playwright's driver and Chromium's processes, from /proc).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kikimimi.benchclock import Stopwatch, load_average, process_cpu_seconds

CHROMIUM = "/usr/bin/chromium"
GOAL_P99_MS = 150.0
GOAL_PAGE_KB = 200.0

_PAGE_ACTIONS = """async (n) => {
  const shown = (target) => new Promise((resolve) => {
    if (document.body.dataset.events === String(target)) { resolve(); return; }
    const watch = new MutationObserver(() => {
      if (document.body.dataset.events === String(target)) { watch.disconnect(); resolve(); }
    });
    watch.observe(document.body, { attributes: true, attributeFilter: ["data-events"] });
  });
  const pieces = [...document.querySelectorAll("#vt-pieces button")].filter((b) => !b.id.startsWith("tap-ctl"));
  const out = [];
  for (let i = 0; i < n; i++) {
    let t0;
    if (i % 2 === 0) {
      const piece = pieces[(i / 2) % pieces.length];
      t0 = performance.now(); piece.click(); await shown(1);
    } else {
      document.getElementById("b-undo").click();
      const yes = document.querySelector("#dialog-buttons button.danger");
      t0 = performance.now(); yes.click(); await shown(0);
    }
    out.push(performance.now() - t0);
  }
  return out;
}"""

_WATCH_TAPS = """() => {
  window.benchSeen = [];
  const now = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => window.benchSeen.push([document.body.dataset.events, now()]))
    .observe(document.body, { attributes: true, attributeFilter: ["data-events"] });
}"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-n", type=int, default=300, help="actions on the page (default 300)")
    parser.add_argument("--taps", type=int, default=100, help="taps on a reader (default 100)")
    parser.add_argument("--json", action="store_true")
    from kikimimi_bench import console_stream as streambench

    streambench.add_arguments(parser)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def _free_port() -> int:
    import socket

    with contextlib.closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(args: argparse.Namespace) -> int:
    if getattr(args, "stream", False):
        from kikimimi_bench.console_stream import run_stream

        return run_stream(args)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("bench console: Playwright is not installed (pip install playwright; the test extra has it)",
              file=sys.stderr)
        return 2
    if not Path(CHROMIUM).exists():
        print(f"bench console: no {CHROMIUM} (Debian's chromium package)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-console-") as home:
        figures = _measure(Path(home), args.n, args.taps, sync_playwright)
    if args.json:
        print(json.dumps(figures))
    else:
        _print(figures)
    return 0 if figures["actions"]["n"] == args.n and figures["journaled"] == figures["expected"] else 1


def _measure(home: Path, n: int, taps: int, sync_playwright: Any) -> dict[str, Any]:
    import httpx

    from kikimimi.console.link import RemoteLink
    from kikimimi.console.web.access import access_path
    from kikimimi.games.base import Referee
    from kikimimi.games.registry import DEFAULT_GAME, get_info
    from kikimimi.table.server import socket_path

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    journal = home / "data" / "journal.sqlite"  # the simulated table's default journal in its data folder
    env = {**os.environ, "KIKIMIMI_DATA": str(home / "data")}
    cmd = [sys.executable, "-m", "kikimimi", "play", "--text-only", "--quiet",
           "--web", f"127.0.0.1:{port}"]
    errors = (home / "play.stderr").open("wb")
    table = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        _wait_for(lambda: _answers(url), "the table's web console", table, home)
        weight = {name: len(httpx.get(url + path).content)
                  for name, path in (("html", "/"), ("js", "/static/console.js"), ("css", "/static/console.css"))}
        code = json.loads(access_path(journal).read_text())["code"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True,
                                          bypass_csp=True)
            page = context.new_page()
            page.goto(f"{url}/?code={code}")
            page.wait_for_function("document.body.dataset.events === '0'")
            page.click("#tabs [data-tab=virtual]")
            page.click("#vt-reader-hand-1")
            table_cpu0, browser_cpu0 = process_cpu_seconds(table.pid), _browser_cpu(table.pid)
            with Stopwatch() as clock:
                actions = page.evaluate(_PAGE_ACTIONS, n)
            table_cpu = process_cpu_seconds(table.pid) - table_cpu0
            browser_cpu = _browser_cpu(table.pid) - browser_cpu0
            # Taps on the table's simulated reader, from outside the page: to the page showing them.
            link = RemoteLink.attach(socket_path(journal))
            page.evaluate(_WATCH_TAPS)
            # The default table's pieces, never the same tag twice within the reader's debounce
            pieces = list(get_info(DEFAULT_GAME).pieces)
            tap_ms = []
            try:
                for i in range(taps):
                    start = time.time()
                    link.tap("hand:2", pieces[i % len(pieces)])
                    seen = _wait_for(lambda: next((t for events, t in page.evaluate("window.benchSeen")
                                                   if events == "1"), None), "the tap on the page", table, home)
                    tap_ms.append(seen - start * 1000)
                    page.evaluate("window.benchSeen = []")
                    link.submit(Referee("undo"))
                    page.wait_for_function("document.body.dataset.events === '0'")
                    page.evaluate("window.benchSeen = []")
            finally:
                link.close()
            browser.close()
        return {
            "actions": {"n": len(actions), "p50_ms": _pct(actions, 50), "p99_ms": _pct(actions, 99),
                        "max_ms": max(actions), "mean_ms": statistics.fmean(actions),
                        "wall_s": clock.wall, "bench_cpu_s": clock.cpu, "table_cpu_s": table_cpu,
                        "browser_cpu_s": browser_cpu,
                        "load": clock.load},
            "taps": {"n": len(tap_ms), "p50_ms": _pct(tap_ms, 50), "p99_ms": _pct(tap_ms, 99), "max_ms": max(tap_ms)},
            "journaled": _journaled(journal), "expected": len(actions) + 2 * len(tap_ms),
            "page_bytes": weight, "page_kb": sum(weight.values()) / 1024, "load": load_average(),
        }
    finally:
        table.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            table.wait(timeout=15)
        errors.close()


def _browser_cpu(table_pid: int) -> float:
    """CPU seconds of this process's other descendants: Playwright's driver and Chromium's processes."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0.0, [pid for pid in children.get(os.getpid(), []) if pid != table_pid]
    while todo:
        pid = todo.pop()
        cpu = process_cpu_seconds(pid)
        total += cpu if cpu == cpu else 0.0  # a process gone meanwhile (NaN) counts nothing
        todo += children.get(pid, [])
    return total


def _journaled(journal: Path) -> int:
    """Events in the journal (read-only): every measured action and tap must be there."""
    import sqlite3

    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])
    finally:
        db.close()


def _answers(url: str) -> bool:
    import httpx

    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(url + "/api/session", timeout=1).status_code in (200, 401)
    return False


def _wait_for(condition: Any, what: str, table: subprocess.Popen[bytes], home: Path, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if table.poll() is not None:
            raise SystemExit(f"bench console: the table exited: {(home / 'play.stderr').read_text()[-2000:]}")
        if time.monotonic() > deadline:
            raise SystemExit(f"bench console: timed out waiting for {what}")
        time.sleep(0.002)


def _print(figures: dict[str, Any]) -> None:
    a, t = figures["actions"], figures["taps"]
    ok = "ok" if a["p99_ms"] <= GOAL_P99_MS else "OVER the goal"
    print(f"action on the page -> its journaled step shown back: {a['n']} actions (virtual-table taps and "
          f"confirmed undos alternating)")
    print(f"  p50 {a['p50_ms']:.1f} ms · p99 {a['p99_ms']:.1f} ms (goal <= {GOAL_P99_MS:.0f} ms: {ok}) · "
          f"max {a['max_ms']:.1f} ms")
    print(f"  wall {a['wall_s']:.2f} s · cpu: the table's process (with the web console) {a['table_cpu_s']:.2f} s, "
          f"the browser's {a['browser_cpu_s']:.2f} s, this one's {a['bench_cpu_s']:.2f} s · load {a['load']:.2f}")
    print(f"tap on a simulated reader -> shown on the page: {t['n']} taps · p50 {t['p50_ms']:.1f} ms · "
          f"p99 {t['p99_ms']:.1f} ms · max {t['max_ms']:.1f} ms")
    print(f"journaled: {figures['journaled']} events of the {figures['expected']} the page and the taps made")
    weight = figures["page_bytes"]
    print(f"page weight: {figures['page_kb']:.1f} KB (goal <= {GOAL_PAGE_KB:.0f} KB): html {weight['html']} B, "
          f"js {weight['js']} B, css {weight['css']} B; no other file, nothing from outside")
