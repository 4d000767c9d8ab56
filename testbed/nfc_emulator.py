"""A FeliCa tag emulated on nfcpy's virtual `udp` frontend, in its own process.

    python -m testbed.nfc_emulator --port 50123 --idm 0101010601b00ac3 --seconds 2

presents the tag to a reader opened on `udp:localhost:50123` for about that long, then takes it
away. Tests, `kikimimi bench readers` and bring-up without hardware use it through `EmulatedTag`.
It prints `listening <monotonic time>` when the tag is first offered and `gone` when it left.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from collections.abc import Sequence

PMM = bytes.fromhex("ffffffffffffffff")  # an IC code nfcpy maps to a plain Type 3 tag: no extra commands
SYSTEM_CODE = bytes.fromhex("12fc")


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def emulate(port: int, idm: bytes, seconds: float) -> None:
    import nfc

    deadline = time.monotonic() + seconds

    def on_startup(target):
        target.brty = "212F"
        target.sensf_res = b"\x01" + idm + PMM + SYSTEM_CODE
        print(f"listening {time.monotonic():.6f}", flush=True)
        return target

    clf = nfc.ContactlessFrontend(f"udp:localhost:{port}")
    try:
        clf.connect(card={"on-startup": on_startup, "on-connect": lambda tag: True, "timeout": 0.05},
                    terminate=lambda: time.monotonic() > deadline)
    finally:
        clf.close()
    print("gone", flush=True)


class EmulatedTag:
    """Present a FeliCa tag with IDm `idm` on udp `port` for `seconds`, in a subprocess."""

    def __init__(self, port: int, idm: str, seconds: float) -> None:
        self.port, self.idm, self.seconds = port, idm, seconds
        self.proc: subprocess.Popen[str] | None = None
        self.listening_at: float | None = None

    def start(self) -> EmulatedTag:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "testbed.nfc_emulator", "--port", str(self.port),
             "--idm", self.idm, "--seconds", str(self.seconds)], stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("listening"):
            self.stop()
            raise RuntimeError(f"the tag emulator did not start (said {line!r})")
        self.listening_at = float(line.split()[1])
        return self

    def wait(self, timeout: float | None = None) -> None:
        assert self.proc is not None
        self.proc.wait(timeout)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()

    def __enter__(self) -> EmulatedTag:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--idm", default="0101010601b00ac3", help="the tag's IDm, 16 hex digits")
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    idm = bytes.fromhex(args.idm)
    if len(idm) != 8:
        parser.error("--idm is 8 bytes (16 hex digits)")
    emulate(args.port, idm, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
