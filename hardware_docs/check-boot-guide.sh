#!/usr/bin/env bash
# Follows the boot guide (hardware_docs/bringup.md, steps 1 and 5) for real, in a clean Debian bookworm
# chroot (Raspberry Pi OS is bookworm; Python 3.11), as root where the guide says sudo and as the service
# user for the rest, then checks the data folder's and the journal's permissions.
#
#   sudo hardware_docs/check-boot-guide.sh [--root DIR] [--mirror URL] [--keep] [--arch arm64] [--from-step N]
#
# --from-step N (2, 5 or 6) reuses a root kept with --keep (same --root and --arch): its build and the steps
# before N are skipped (the output says so); the checkout in the root is brought to this checkout's HEAD,
# so a fix to the guide can be tried from the step that failed without hours of emulated install.
# --arch arm64 builds the root for a Raspberry Pi's processor (aarch64) and runs it through qemu-user-static
# (binfmt_misc is mounted here if it is not): every step then runs as on a Pi, only slower; each step prints
# its EMULATED time. Not part of the test suite: it needs root and the network (Debian's mirror, PyPI) and
# takes minutes natively, hours emulated.
# The guide's code blocks are READ FROM bringup.md and run line by line, so the check and the guide cannot
# drift apart. What a chroot cannot do is done by hand and said so:
#   - apt-get is told to assume "yes" (a person answers the prompt);
#   - `git clone <this repository>` clones the committed HEAD of this checkout (bind-mounted read-only);
#   - "table.toml" (bound with --assign on real hardware) is the shipped simulated table;
#   - systemd does not run in a chroot: the unit is checked with `systemd-analyze verify`, and its
#     ExecStart is run as its User, with its Environment, UMask, Nice and StateDirectory(Mode), read
#     from the installed unit file;
#   - step 5's voice pack is made "on the laptop": the guide's laptop line (in the prose right before step 5's
#     block) runs natively on this machine with its own kikimimi ($KIKIMIMI_LAPTOP, default this checkout's
#     .venv/bin/kikimimi) and a data folder of its own, and the pack file is copied into the root's /tmp, as
#     `scp` would; the block's `voices import` then runs in the root as written;
#   - step 2: the files are copied and the groups given as written; `modprobe -r` and `udevadm` need a
#     kernel and a running udev: the rules are checked for form (udevadm
#     verify where systemd has it) and pcscd is enabled (`systemctl enable`, as the guide says, without --now);
#   - step 6, `bringup --check`, runs on the shipped simulated table as the service user (on a machine without
#     a sound card, the root's default output is ALSA's null device, said when it is so).
set -euo pipefail
. "$(dirname "$0")/debian-root.sh"  # debian_mirror, say, in_root

ROOT=/var/tmp/kikimimi-boot-check
CHECK_START=$SECONDS
MIRROR=$(debian_mirror)
KEEP=0
ARCH=""
FROM=1
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=$2; shift 2 ;;
        --mirror) MIRROR=$2; shift 2 ;;
        --keep) KEEP=1; shift ;;
        --arch) ARCH=$2; shift 2 ;;
        --from-step) FROM=$2; shift 2 ;;
        -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
        *) echo "check-boot-guide.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$FROM" in 1|2|5|6) ;; *) echo "check-boot-guide.sh: --from-step takes 1, 2, 5 or 6 (the guide's steps run here), not $FROM" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "check-boot-guide.sh: run as root (it builds a chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "check-boot-guide.sh: apt-get install -y debootstrap" >&2; exit 2; }
FOREIGN=()
if [ -n "$ARCH" ] && [ "$ARCH" != "$(dpkg --print-architecture)" ]; then
    qemu=$(case "$ARCH" in arm64) echo aarch64 ;; armhf) echo arm ;; *) echo "$ARCH" ;; esac)
    command -v "qemu-$qemu-static" >/dev/null \
        || { echo "check-boot-guide.sh: qemu-$qemu-static missing: apt-get install -y qemu-user-static binfmt-support" >&2; exit 2; }
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
        || { echo "check-boot-guide.sh: this machine cannot mount binfmt_misc (a container?): no $ARCH root here" >&2; exit 2; }
    update-binfmts --enable "qemu-$qemu" 2>/dev/null || true
    grep -q enabled "/proc/sys/fs/binfmt_misc/qemu-$qemu" 2>/dev/null \
        || { echo "check-boot-guide.sh: binfmt_misc has no qemu-$qemu entry (reinstall qemu-user-static)" >&2; exit 2; }
    FOREIGN=(--arch "$ARCH" --foreign)
fi

SRC=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
GUIDE=$SRC/hardware_docs/bringup.md
REPO_IN_CHROOT=/mnt/kikimimi-repo
FAILED=0

fail() { printf '\033[31mFAIL: %s\033[0m\n' "$*"; FAILED=1; }
ok() { printf '\033[32mok: %s\033[0m\n' "$*"; }

unmount_all() {
    for m in "$REPO_IN_CHROOT" /dev/shm /dev/pts /dev /sys /proc; do
        mountpoint -q "$ROOT$m" 2>/dev/null && umount -lR "$ROOT$m"
    done
    return 0
}
trap unmount_all EXIT

# The command lines of the first code block (indented lines) of one "## N." section of the guide, comments
# and blank lines dropped. Later blocks of a section are not steps (e.g. the console, which is interactive).
guide_commands() {
    awk -v section="## $1." 'index($0, section) == 1 { on = 1; next } /^## / { on = 0 }
                             on && /^    / { block = 1; if ($0 ~ /^    [^ ]/) print; next }
                             on && block && /[^ ]/ { on = 0 }' "$GUIDE" \
        | sed -e 's/^    //' -e 's/[[:space:]]\+#.*$//' | grep -v '^$'
}

# The laptop's part of step 5: the `kikimimi voices render ... --out FILE.tar` line in the prose before the
# section's first code block (inline code, maybe wrapped over two lines).
laptop_commands() {
    awk 'index($0, "## 5.") == 1 { on = 1; next } on && (/^## / || /^    /) { exit } on' "$GUIDE" \
        | tr '\n' ' ' | grep -o 'kikimimi voices render [^`]*--out [^` ]*\.tar' | head -n 1
}

# Does the step N run? (--from-step skips the ones before it on a kept root)
runs_step() { [ "$1" -ge "$FROM" ]; }
skipped() { say "step $1: skipped (--from-step $FROM: done before in the kept root $ROOT)"; }

if runs_step 1; then
    say "a clean bookworm root in $ROOT (mirror $MIRROR)"
    unmount_all
    rm -rf "$ROOT"
    # Raspberry Pi OS Lite has python3, sudo, git, systemd, udev and kmod; minbase has none of them.
    start=$SECONDS
    debootstrap "${FOREIGN[@]}" --variant=minbase --include=python3,sudo,git,ca-certificates,systemd,udev,kmod \
        bookworm "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 \
        || { tail -n 20 "$ROOT.debootstrap.log"; exit 1; }
    if [ ${#FOREIGN[@]} -gt 0 ]; then  # the second stage runs the new root's own programs, through qemu
        chroot "$ROOT" /debootstrap/debootstrap --second-stage >>"$ROOT.debootstrap.log" 2>&1 \
            || { tail -n 20 "$ROOT.debootstrap.log"; exit 1; }
    fi
    echo "root built in $((SECONDS - start)) s"
    in_root 'echo "$(uname -m), Debian $(cat /etc/debian_version)"'
    in_root 'python3 --version; cat /etc/debian_version'
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    echo "127.0.1.1 $(hostname)" >>"$ROOT/etc/hosts"  # sudo looks its host name up
    # Not a step of the guide: a machine that reaches PyPI through a proxy with its own CA trusts it here too.
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
        in_root 'update-ca-certificates >/dev/null'
    fi
    echo 'APT::Get::Assume-Yes "true";' >"$ROOT/etc/apt/apt.conf.d/90-answer-yes"
else
    [ -f "$ROOT/etc/debian_version" ] && [ -d "$ROOT/root/kikimimi-src" -o -d "$ROOT/usr/share/doc/python3-venv" ] \
        || { echo "check-boot-guide.sh: --from-step $FROM needs a root kept with --keep after step 1: $ROOT has none" >&2; exit 2; }
    root_arch=$(chroot "$ROOT" dpkg --print-architecture)
    [ "$root_arch" = "${ARCH:-$(dpkg --print-architecture)}" ] \
        || { echo "check-boot-guide.sh: $ROOT is a $root_arch root, not ${ARCH:-$(dpkg --print-architecture)}" >&2; exit 2; }
    say "reusing the kept root $ROOT (--from-step $FROM): its build is skipped"
    unmount_all
    in_root 'echo "$(uname -m), Debian $(cat /etc/debian_version)"'
fi
mount -t proc proc "$ROOT/proc"
# This machine's /sys describes an x86_64 processor: under qemu, onnxruntime (which Open JTalk loads) reads
# it and crashes (SIGSEGV at import). A Pi's /sys is its own; here a foreign root gets none (onnxruntime
# then warns that it cannot read the processors, and works).
[ ${#FOREIGN[@]} -gt 0 ] || mount --rbind /sys "$ROOT/sys"
mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"
# /dev/shm is a tmpfs open to all (1777) on a Pi; the bind above shows the bare folder under this machine's
# (root's 0755), where the service user's render cannot make its process pool's semaphores.
mount -t tmpfs -o mode=1777 shm "$ROOT/dev/shm"
mkdir -p "$ROOT$REPO_IN_CHROOT"
mount --bind -o ro "$SRC" "$ROOT$REPO_IN_CHROOT"
in_root "git config --system --add safe.directory '*'"
echo "checking out $(git -C "$SRC" log -1 --format='%h %s' | cut -c1-100)"

run_guide_line() {  # one command line of the guide, as root in the checkout (the guide's relative paths)
    local line=$1 start=$SECONDS
    printf '\n\033[36m$ %s\033[0m\n' "$line"
    if ! in_root "cd ~/kikimimi-src 2>/dev/null || cd ~; $line"; then
        fail "the guide's command failed: $line (after $((SECONDS - start)) s)"
        return 1
    fi
    echo "($((SECONDS - start)) s)"
}

if runs_step 1; then
    say "step 1: install (as the guide says)"
    while IFS= read -r line; do
        line=${line//<this repository>/$REPO_IN_CHROOT}
        case "$line" in
            *"pip install"*) run_guide_line "$line 2>&1 | tail -n 3" || exit 1 ;;  # pip is long: its last lines
            *) run_guide_line "$line" || exit 1 ;;
        esac
    done < <(guide_commands 1)
else
    skipped 1
    # The kept checkout is brought to this checkout's HEAD: the later steps copy files from it.
    in_root "if [ -d ~/kikimimi-src/.git ]; then git -C ~/kikimimi-src fetch -q $REPO_IN_CHROOT HEAD \
             && git -C ~/kikimimi-src reset -q --hard FETCH_HEAD; else git clone -q $REPO_IN_CHROOT ~/kikimimi-src; fi" \
        || { fail "could not bring ~/kikimimi-src in the kept root to HEAD"; exit 1; }
    echo "~/kikimimi-src in the root is at $(in_root 'git -C ~/kikimimi-src log -1 --format=%h')"
fi

if runs_step 2; then
    say "step 2: devices (as the guide says, but what needs a kernel and a running udev)"
    while IFS= read -r line; do
        case "$line" in
            "sudo modprobe"*|"sudo udevadm"*) echo "(no kernel modules or udev daemon in a chroot: '$line' is not run)" ;;
            *) run_guide_line "$line" || exit 1 ;;
        esac
    done < <(guide_commands 2)
    if in_root 'udevadm verify --help' >/dev/null 2>&1; then
        in_root 'udevadm verify /etc/udev/rules.d/99-kikimimi.rules' && ok "udevadm verify: the rules parse" \
            || fail "udevadm verify /etc/udev/rules.d/99-kikimimi.rules"
    else  # bookworm's udevadm (systemd 252) has no verify: at least every rule line is KEY==/KEY= pairs
        bad=$(grep -v -E '^(#|$)' "$ROOT/etc/udev/rules.d/99-kikimimi.rules" \
              | grep -v -E '^[A-Z_]+(\{[^}]*\})?(==|!=|=|\+=)"[^"]*"(, *[A-Z_]+(\{[^}]*\})?(==|!=|=|\+=|-=|:=)"[^"]*")*,? *$' || true)
        [ -z "$bad" ] && ok "every rule of 99-kikimimi.rules has the KEY==\"value\" form" || fail "rules that do not parse: $bad"
    fi
    [ -f "$ROOT/etc/modprobe.d/blacklist-nfc.conf" ] && ok "the NFC drivers are blacklisted" || fail "no blacklist-nfc.conf"
    # The guide's PC/SC paragraph: install pcscd and enable it at boot (--now needs a running systemd).
    run_guide_line 'apt-get install pcscd libccid >/dev/null && systemctl enable pcscd' || exit 1
    [ -e "$ROOT/etc/systemd/system/sockets.target.wants/pcscd.socket" ] || [ -e "$ROOT/etc/systemd/system/multi-user.target.wants/pcscd.service" ] \
        && ok "pcscd is enabled at boot" || fail "pcscd is not enabled at boot"
else
    skipped 2
fi

if runs_step 5; then
    say "step 5: run at boot (as the guide says; table.toml is the shipped simulated table)"
    if [ "$FROM" = 5 ] && in_root 'id kikimimi' >/dev/null 2>&1; then  # a kept root that ran step 5 before
        echo "(--from-step 5: the service user and its home that an earlier run made are removed first)"
        in_root 'userdel -r kikimimi 2>/dev/null; rm -rf /etc/kikimimi /etc/systemd/system/kikimimi.service'
    fi
    in_root 'cp ~/kikimimi-src/devices/tables/trident-sim.toml ~/kikimimi-src/table.toml'

    # "The laptop": natively, not in the root (a Pi renders far slower; the guide says to render elsewhere).
    LAPTOP=${KIKIMIMI_LAPTOP:-$SRC/.venv/bin/kikimimi}
    [ -x "$LAPTOP" ] || { fail "no kikimimi to play the laptop: $LAPTOP is missing (run ./run --help in $SRC to make .venv, or set KIKIMIMI_LAPTOP=/path/to/bin/kikimimi)"; exit 1; }
    laptop_line=$(laptop_commands)
    [ -n "$laptop_line" ] || { fail "no laptop line (kikimimi voices render ... --out FILE.tar) before step 5's block in $GUIDE"; exit 1; }
    pack=${laptop_line##*--out }; pack=${pack%% *}
    guide_commands 5 | grep -q "voices import /tmp/$pack" \
        || { fail "step 5's block does not import /tmp/$pack, the file the laptop line writes"; exit 1; }
    say "before step 5, on \"the laptop\" (natively, $(uname -m), $LAPTOP): $laptop_line"
    laptop_data=$(mktemp -d)
    start=$SECONDS
    (cd "$laptop_data" && KIKIMIMI_DATA=$laptop_data bash -o pipefail -c \
        "${laptop_line//kikimimi voices /$LAPTOP voices } 2>&1 | tr '\r' '\n' | tail -n 4") \
        || { fail "the laptop's line failed: $laptop_line"; rm -rf "$laptop_data"; exit 1; }
    install -m 0644 "$laptop_data/$pack" "$ROOT/tmp/$pack"  # as scp to the Pi's /tmp
    rm -rf "$laptop_data"
    echo "($((SECONDS - start)) s natively; $pack copied to the root's /tmp)"

    while IFS= read -r line; do
        case "$line" in
            *systemctl*|journalctl*) echo "(no systemd in a chroot: '$line' is checked below by hand)" ;;
            *"pip install"*) run_guide_line "$line 2>&1 | tail -n 3" || exit 1 ;;
            *) run_guide_line "$line" || exit 1 ;;
        esac
    done < <(guide_commands 5)

    UNIT=$ROOT/etc/systemd/system/kikimimi.service
    say "the unit: systemd-analyze verify"
    if in_root 'systemd-analyze verify /etc/systemd/system/kikimimi.service'; then
        ok "systemd-analyze verify found nothing wrong"
    else
        fail "systemd-analyze verify"
    fi

    unit_value() { sed -n "s/^$1=//p" "$UNIT" | tail -n 1; }
    USER_=$(unit_value User)
    UMASK=$(unit_value UMask)
    NICE=$(unit_value Nice)
    EXEC=$(unit_value ExecStart)
    STATE=/var/lib/$(unit_value StateDirectory)
    STATE_MODE=$(unit_value StateDirectoryMode)
    ENVS=$(sed -n 's/^Environment=//p' "$UNIT" | tr '\n' ' ')
    echo "User=$USER_ UMask=$UMASK Nice=$NICE StateDirectory=$STATE (mode ${STATE_MODE:-0755})"
    echo "Environment: $ENVS"
    echo "ExecStart=$EXEC"
    # StateDirectory: systemd creates it owned by User with StateDirectoryMode (default 0755). Whether it
    # also changes the mode of a folder that already exists (useradd made it) depends on the systemd
    # version, so it is left as it is here: the guide must make it right by itself.
    in_root "[ -d $STATE ] || install -d -m ${STATE_MODE:-0755} $STATE; chown $USER_:$USER_ $STATE"

    # The unit's ExecStart (plus extra arguments) as the service runs it, in the background: $! is runuser
    # (chroot, env, bash and nice exec into it) and the table is its only child. stdin is /dev/null.
    service() {
        exec chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 /bin/bash -c \
            "cd / && umask $UMASK && exec nice -n ${NICE:-0} runuser -u $USER_ -- env -i PATH=/usr/bin:/bin $ENVS \
             $EXEC $*" </dev/null
    }
    table_of() {  # the table's own pid under runuser: systemd signals the service's main process itself
        local pid
        for _ in $(seq 50); do pid=$(pgrep -P "$1" | head -n 1) && [ -n "$pid" ] && { echo "$pid"; return; }; sleep 0.1; done
        echo "$1"
    }

    # Waits for a line of the service's log (up to $3 s, while $4 runs): under emulation the table took 14 s
    # and more to be ready, so a fixed wait stopped it before it had started (status 143, no game to resume).
    wait_for_line() {
        local log=$1 pattern=$2 limit=$3 pid=$4 start=$SECONDS
        until grep -q "$pattern" "$log" 2>/dev/null; do
            kill -0 "$pid" 2>/dev/null && [ $((SECONDS - start)) -lt "$limit" ] \
                || { echo "(no '$pattern' in ${log#"$ROOT"} after $((SECONDS - start)) s)"; return 1; }
            sleep 1
        done
        echo "('$pattern' after $((SECONDS - start)) s)"
    }

    say "ExecStart as the service: start, wait until it is ready (its web console attached), stop with SIGTERM (systemctl stop)"
    service >"$ROOT/tmp/run1.log" 2>&1 & pid=$!
    wait_for_line "$ROOT/tmp/run1.log" 'web console: attached' 300 "$pid" || fail "the service did not become ready"
    sleep 2
    kill -TERM "$(table_of "$pid")" 2>/dev/null || true
    if wait "$pid"; then ok "started and stopped cleanly on SIGTERM"; else fail "exit status $? (log below)"; fi
    tail -n 6 "$ROOT/tmp/run1.log"

    say "the same command line with a whole game fed through the simulated readers (--feed, as tests do)"
    install -m 0644 "$SRC/tests/scripts/trident_full_game.jsonl" "$ROOT/tmp/trident_full_game.jsonl"
    service --feed /tmp/trident_full_game.jsonl --pace 0 >"$ROOT/tmp/run2.log" 2>&1 & pid=$!
    if wait "$pid"; then ok "a whole game played by the service user"; else fail "the fed game ended with status $?"; fi
    tail -n 4 "$ROOT/tmp/run2.log"

    say "a crash mid-game (SIGKILL), then ExecStart again (Restart=always): the game resumes"
    service --feed /tmp/trident_full_game.jsonl --pace 0.3 >"$ROOT/tmp/run3.log" 2>&1 & pid=$!
    # Killed at its 15th tap of 46 (the transcript numbers them): the feed starts only once the table and its
    # web console are up, which emulated took longer than any fixed wait (a crash there left 0 events).
    wait_for_line "$ROOT/tmp/run3.log" '^ *15  ' 300 "$pid" || fail "the fed service did not reach its 15th tap"
    kill -KILL "$(table_of "$pid")" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    service >"$ROOT/tmp/run4.log" 2>&1 & pid=$!
    wait_for_line "$ROOT/tmp/run4.log" 'web console: attached' 300 "$pid" || fail "the restarted service did not become ready"
    sleep 2
    kill -TERM "$(table_of "$pid")" 2>/dev/null || true
    wait "$pid" || fail "the restarted service exited with status $?"
    grep -m3 'resuming .* after [1-9][0-9]* events' "$ROOT/tmp/run4.log" \
        || { fail "the restarted service did not say it resumed the game with its events"; tail "$ROOT/tmp/run4.log"; }
    in_root "runuser -u $USER_ -- env $ENVS /opt/kikimimi/bin/kikimimi journal list --config /etc/kikimimi/table.toml" \
        | tail -n 8

    say "the records, as a person adds a player for the table (sudo -u, the login umask 022, not the unit's)"
    in_root "sudo -u $USER_ KIKIMIMI_DATA=$STATE /opt/kikimimi/bin/kikimimi players add Aki" \
        || fail "players add as the service user"

    say "permissions (issue 15, item 6): the data folder 0700, the journal and records 0600, all the service user's"
    in_root "stat -c '%a %U:%G %n' $STATE $STATE/* 2>/dev/null | sort -k3"
    mode=$(stat -c %a "$ROOT$STATE")
    [ "$mode" = 700 ] && ok "$STATE is 0700" || fail "$STATE is $mode, not 0700"
    for f in "$ROOT$STATE"/journal.sqlite*; do  # the service made these (the journal also sets 0600 itself)
        m=$(stat -c %a "$f")
        [ "$m" = 600 ] && ok "${f#"$ROOT"} is 0600" || fail "${f#"$ROOT"} is $m, not 0600"
    done
    # Made by a person's command, not by the service: the records store does not set its mode, so it follows
    # that person's umask; the 0700 folder is what keeps other users out (checked below).
    m=$(stat -c %a "$ROOT$STATE/records.sqlite" 2>/dev/null || echo missing)
    [ "$m" = 600 ] && ok "$STATE/records.sqlite is 0600" || echo "note: $STATE/records.sqlite is $m (made by sudo -u with umask 022)"
    others=$(in_root "find $STATE -not -user $USER_ | head -n 5")
    [ -z "$others" ] && ok "everything in $STATE belongs to $USER_" || fail "not the service user's: $others"
    for f in journal.sqlite records.sqlite; do
        readable=$(in_root "runuser -u nobody -- cat $STATE/$f >/dev/null 2>&1 && echo readable || true")
        [ -z "$readable" ] && ok "another local user (nobody) cannot read $f" || fail "nobody can read $STATE/$f"
    done
else
    skipped 5
    USER_=kikimimi; ENVS="KIKIMIMI_DATA=/var/lib/kikimimi"  # what a kept root's unit said
    UNIT=$ROOT/etc/systemd/system/kikimimi.service
    [ -f "$UNIT" ] && ENVS=$(sed -n 's/^Environment=//p' "$UNIT" | tr '\n' ' ') && USER_=$(sed -n 's/^User=//p' "$UNIT" | tail -n 1)
fi

say "step 6: the acceptance check on the simulated table, as the service user"
if [ ! -d /dev/snd ]; then  # a Pi has its sound cards; this machine has none to lend the root
    echo "(no sound card on this machine: the root's default output is ALSA's null device, /etc/alsa/conf.d/99-check-no-sound-card.conf)"
    mkdir -p "$ROOT/etc/alsa/conf.d"
    printf '%s\n' "# The boot-guide check only: no sound card here; the default output is ALSA's null device." \
        'pcm.!default { type null }' 'ctl.!default { type hw card 0 }' >"$ROOT/etc/alsa/conf.d/99-check-no-sound-card.conf"
fi
start=$SECONDS
if in_root "cd /tmp && runuser -u $USER_ -- env $ENVS /opt/kikimimi/bin/kikimimi bringup --config /etc/kikimimi/table.toml --check" \
        >"$ROOT/tmp/check.log" 2>&1; then
    ok "bringup --check: PASS ($((SECONDS - start)) s)"
else
    fail "bringup --check did not pass ($((SECONDS - start)) s)"
fi
tail -n 15 "$ROOT/tmp/check.log"

echo "the whole check took $((SECONDS - CHECK_START)) s on $(uname -m)${FOREIGN:+ for ${ARCH} (EMULATED)}"
if [ "$KEEP" = 0 ]; then unmount_all; rm -rf "$ROOT"; fi
from=""; [ "$FROM" = 1 ] || from=" (from step $FROM, on a kept root)"
say "$([ "$FAILED" = 0 ] && echo "the boot guide works as written$from" || echo "the boot guide FAILED somewhere above$from")"
exit "$FAILED"
