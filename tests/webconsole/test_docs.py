"""What the README and the boot guide say about the web console holds: the options they name exist, the
guide's log command shows the address, the code and the whole QR code of a real `play --web`, and the
service's unit runs with --web on the port the guide names."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from waiting import wait_until
from web_helpers import WebTable, kikimimi

from kikimimi.console.web.serve import DEFAULT_LISTEN

ROOT = Path(__file__).parents[2]


def test_the_readme_names_the_web_options_and_links_the_console_page():
    readme = (ROOT / "README.md").read_text()
    rows = {row.split("|")[1].strip(): row for row in readme.splitlines() if row.startswith("| `kikimimi ")}
    play = next(row for command, row in rows.items() if command.startswith("`kikimimi play"))
    console = next(row for command, row in rows.items() if command.startswith("`kikimimi console"))
    assert "--web [ADDR:PORT]" in play and "--web [--listen ADDR:PORT]" in console
    assert "(docs/console.md)" in readme and (ROOT / "docs/console.md").exists()
    # The options exist as the README writes them.
    console_help = subprocess.run(kikimimi("console", "--help"), capture_output=True, text=True).stdout
    assert "--web" in console_help and "--listen" in console_help
    assert "--web [ADDR:PORT]" in subprocess.run(kikimimi("play", "--help"), capture_output=True, text=True).stdout


def test_the_boot_guides_log_command_shows_the_code_and_the_whole_qr_code(tmp_path):
    guide = (ROOT / "hardware_docs/bringup.md").read_text()
    command = re.search(r"^\s+sudo (journalctl -u kikimimi -o cat \| grep .*)$", guide, re.M)
    assert command, "the guide's command to find the code"
    unit = (ROOT / "devices/systemd/kikimimi.service").read_text()
    assert re.search(r"^ExecStart=.* play .*--web\b", unit, re.M)
    assert "port " + DEFAULT_LISTEN.rsplit(":", 1)[1] in guide
    table = WebTable(tmp_path / "t")
    try:
        wait_until(lambda: "scan to open" in table.table.out.read_text(), 10, "the table's QR line", every=0.05)
        # The service's log as `journalctl -o cat` gives it: the table's output, and more lines after it.
        log = table.table.out.read_text() + "".join(f"a later line {n}\n" for n in range(40))
    finally:
        assert table.stop() == 0
    pipeline = command.group(1).split("|", 1)[1]
    shown = subprocess.run(pipeline, shell=True, input=log, capture_output=True, text=True).stdout
    printed = log.splitlines()
    start = next(i for i, line in enumerate(printed) if line.startswith("web console:"))
    qr = [line for line in printed[start:] if line and set(line) <= set("█▀▄ ")]
    assert len(qr) > 15 and table.code[:3] + " " + table.code[3:] in shown
    assert "\n".join(qr) in shown  # every line of the QR code, in order
