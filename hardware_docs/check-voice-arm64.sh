#!/usr/bin/env bash
# Does the Japanese voice install and speak on a Raspberry Pi? Builds a Debian bookworm arm64 root (what
# Raspberry Pi OS 64-bit is: Python 3.11) run through qemu-user-static, installs the voice's Python
# packages there from PyPI as wheels only (the pins and floors of pyproject.toml; a package without an
# aarch64 wheel fails the check instead of being compiled), and renders one Japanese phrase of every game's
# catalog to a FLAC clip through the project's own render path (the jtalk backend and `render_pack`, as
# `kikimimi voices render` does), checking that every clip is speech and not silence.
#
#   sudo hardware_docs/check-voice-arm64.sh [--root DIR] [--mirror URL] [--fresh] [--voice SPEC]
#
# --voice 'pyopenjtalk-plus==X' checks another release than pyproject.toml's pin (in a venv of its own)
# before the pin is changed. Where this checkout has a .venv, the same phrases are also rendered natively
# and the clips compared byte for byte: a pack rendered on a PC is then the Pi's pack.
#
# Not part of the test suite: it needs root, the network (Debian's mirror, PyPI) and, under emulation,
# about 25 minutes on a fresh root (a few on a kept one). The root is kept for the next run (--fresh
# builds it again). It checks the committed HEAD of this checkout. Times printed are EMULATED: an aarch64
# process on this machine's cores through qemu, not a Pi's speed.
set -euo pipefail
. "$(dirname "$0")/debian-root.sh"  # debian_mirror, say, in_root

ROOT=/var/tmp/kikimimi-arm64-root
MIRROR=$(debian_mirror)
FRESH=0
VOICE=""
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=$2; shift 2 ;;
        --mirror) MIRROR=$2; shift 2 ;;
        --fresh) FRESH=1; shift ;;
        --voice) VOICE=$2; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "check-voice-arm64.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "check-voice-arm64.sh: run as root (it builds a chroot)" >&2; exit 2; }
for tool in debootstrap qemu-aarch64-static update-binfmts; do
    command -v "$tool" >/dev/null \
        || { echo "check-voice-arm64.sh: $tool missing: apt-get install -y debootstrap qemu-user-static binfmt-support" >&2; exit 2; }
done

SRC=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
VENV=/opt/kikimimi-venv${VOICE:+-$(printf %s "$VOICE" | tr -c 'A-Za-z0-9.\n' -)}
CODE=/opt/kikimimi-src

unmount_all() {
    for m in /dev /proc; do mountpoint -q "$ROOT$m" 2>/dev/null && umount -l "$ROOT$m"; done
    return 0
}
trap unmount_all EXIT

say "aarch64 programs run through qemu (binfmt_misc)"
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 \
    || { echo "check-voice-arm64.sh: binfmt_misc has no qemu-aarch64 entry (reinstall qemu-user-static)" >&2; exit 1; }

unmount_all
if [ "$FRESH" = 1 ] || [ ! -x "$ROOT/usr/bin/python3" ]; then
    say "a Debian bookworm arm64 root in $ROOT (mirror $MIRROR)"
    rm -rf "$ROOT"
    # What the table needs from Debian for speech: python3 with venv, libsndfile (FLAC), espeak-ng (English).
    start=$SECONDS
    debootstrap --arch arm64 --foreign --variant=minbase \
        --include=python3,python3-venv,libsndfile1,espeak-ng,ca-certificates \
        bookworm "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 \
        || { tail -n 20 "$ROOT.debootstrap.log"; exit 1; }
    chroot "$ROOT" /debootstrap/debootstrap --second-stage >>"$ROOT.debootstrap.log" 2>&1 \
        || { tail -n 20 "$ROOT.debootstrap.log"; exit 1; }
    echo "root built in $((SECONDS - start)) s"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # Not a Pi's step: a machine that reaches PyPI through a proxy with its own CA trusts it here too.
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
        in_root 'update-ca-certificates >/dev/null'
    fi
fi
[ -x "$ROOT$VENV/bin/python" ] || in_root "python3 -m venv $VENV"
mount -t proc proc "$ROOT/proc"
# No /sys: onnxruntime's cpuinfo then warns that it cannot list the processors (a Pi's kernel has them); given
# this machine's x86 /sys it crashes the emulated process.
mount --bind /dev "$ROOT/dev"
in_root 'echo "$(uname -m), Debian $(cat /etc/debian_version), $(python3 --version)"'

# The voice's requirements, read from pyproject.toml so that this check follows the pin.
WANTED=$(python3 - "$SRC/pyproject.toml" "$VOICE" <<'EOF'
import re, sys, tomllib
deps = tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]
voice = ("pyopenjtalk-plus", "soundfile", "pyloudnorm", "numpy")
name = lambda spec: re.split(r"[<>=!~\[ ;]", spec)[0].lower()
wanted = [sys.argv[2] if sys.argv[2] and name(d) == "pyopenjtalk-plus" else d for d in deps if name(d) in voice]
print(" ".join(f"'{d}'" for d in wanted))
EOF
)
say "pip install --only-binary=:all: $WANTED"
start=$SECONDS
in_root "$VENV/bin/python -m pip install --only-binary=:all: $WANTED 2>&1 \
         | grep -E '^ *(Downloading|Successfully|ERROR|Requirement already satisfied: pyopenjtalk)' | sed 's/ (.*//'" \
    || { echo "FAIL: the voice's packages do not install as aarch64 wheels" >&2; exit 1; }
echo "pip took $((SECONDS - start)) s"

say "the project's code (committed HEAD: $(git -C "$SRC" log -1 --format='%h %s' | cut -c1-80))"
rm -rf "$ROOT$CODE"
mkdir -p "$ROOT$CODE"
git -C "$SRC" archive HEAD kikimimi voices devices | tar -x -C "$ROOT$CODE"

say "one Japanese phrase of every game, rendered with Open JTalk into a FLAC pack (EMULATED aarch64)"
rm -rf "$ROOT/tmp/kikimimi-arm64-pack"  # a fresh pack: every phrase rendered, none kept from a last run
cat >"$ROOT/tmp/render_one_per_game.py" <<'EOF'
"""One phrase of each game's Japanese catalog through the jtalk backend and render_pack, then the FLAC
read back: the wheels' versions, the start-up time and each phrase's render time, emulated."""
import importlib.metadata as metadata
import platform
import sys
from pathlib import Path

import numpy as np
import soundfile

from kikimimi.benchclock import Stopwatch
from kikimimi.games.registry import games
from kikimimi.voice.catalog import Catalog, catalog
from kikimimi.voice.clip import loudness
from kikimimi.voice.pack import Pack, read_clip, render_pack
from kikimimi.voice.tts import make_backend

print(f"{platform.machine()}, Python {platform.python_version()}, libsndfile {soundfile.__libsndfile_version__}")
for name in ("pyopenjtalk-plus", "onnxruntime", "sudachipy", "sudachidict-core", "numpy", "scipy", "soundfile",
             "pyloudnorm"):
    try:
        wheel = metadata.distribution(name).read_text("WHEEL") or ""
    except metadata.PackageNotFoundError:
        print(f"  {name}: not installed")
        continue
    tags = ", ".join(line.split(": ", 1)[1] for line in wheel.splitlines() if line.startswith("Tag: "))
    print(f"  {name} {metadata.version(name)} ({tags})")
with Stopwatch() as start:
    synth = make_backend("jtalk", "ja").synth
print(f"Open JTalk start-up (import, dictionaries, onnxruntime): {start.line()}")

out, failures, first = Path(sys.argv[1]), 0, True
for info in games():
    words = catalog("ja", info.catalog)
    # The game's own first phrase that a pack renders, with its first parameter values only: one entry.
    key = next(k for k in sorted(words.phrases) if words.entry_key(k) != k and next(words.combinations(k), None)
               is not None and not words.has_short(k))
    params = next(words.combinations(key))
    values, ranges = dict(words.values), dict(words.ranges)
    for name, value in params.items():  # each parameter's type narrowed to the value chosen
        kind = words.param_types[name]
        if kind in ranges:
            ranges[kind] = range(value, value + 1)
        else:
            values[kind] = {value: words.values[kind][value]}
    one = Catalog("ja", {key: words.phrases[key]}, values, words.namespace, words.param_types, ranges,
                  words.readings)
    line = one.render(key, params)
    with Stopwatch() as clock:
        report = render_pack(one, "jtalk", "", synth, out)
    if report.failed or len(report.rendered) != 1:
        failures += 1
        print(f"FAIL {info.id}: {report.failed or report.rendered}")
        continue
    entry = report.rendered[0]
    pack = Pack.load(out, "ja", "jtalk")
    clip = read_clip(out / "audio" / pack.entries[entry]["file"])
    peak, lufs = float(np.max(np.abs(clip.samples))), loudness(clip)
    speech = peak > 0.1 and lufs > -30
    failures += not speech
    print(f"{'ok  ' if speech else 'FAIL'} {entry}: {line.natural}\n"
          f"     {clip.seconds:.2f} s at {clip.rate} Hz, peak {peak:.2f}, {lufs:.1f} LUFS, "
          f"{pack.entries[entry]['bytes']} bytes FLAC; render {clock.line()}"
          + ("\n     (the first render also loads the HTS voice, Sudachi's dictionary and scipy)" if first else ""))
    first = False
sys.exit(1 if failures else 0)
EOF
PACK=$ROOT/tmp/kikimimi-arm64-pack
in_root "cd /tmp && PYTHONPATH=$CODE $VENV/bin/python /tmp/render_one_per_game.py ${PACK#"$ROOT"}"
ls -l "$PACK/audio"

if [ -x "$SRC/.venv/bin/python" ]; then
    say "the same phrases on this machine, natively ($(uname -m), this checkout's .venv), for comparison"
    NATIVE=$ROOT.native-pack
    rm -rf "$NATIVE"
    (cd /tmp && PYTHONPATH=$ROOT$CODE "$SRC/.venv/bin/python" "$ROOT/tmp/render_one_per_game.py" "$NATIVE") 2>&1 \
        | grep -v -E '^  (onnxruntime|sudachi|numpy|scipy|soundfile|pyloudnorm)'
    same=0 total=0
    for clip in "$PACK"/audio/*; do
        total=$((total + 1))
        if cmp -s "$clip" "$NATIVE/audio/${clip##*/}"; then same=$((same + 1)); else echo "differs: ${clip##*/}"; fi
    done
    # A difference with --voice is the other release's reading, not the processor: compare the versions above.
    echo "$same of $total clips byte-identical on aarch64 (emulated) and $(uname -m)"
fi
