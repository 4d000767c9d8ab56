# Shared by the hardware_docs/check-*.sh scripts (sourced, not run): a Debian bookworm root to check a
# guide in. They set ROOT before calling in_root.

# This machine's own Debian mirror (its apt sources), else Debian's.
debian_mirror() {
    local mirror
    mirror=$(sed -n 's/^URIs: *//p; s/^deb \(\[[^]]*\] \)\?\(http[^ ]*\) bookworm .*/\2/p' \
             /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | grep -v security | head -n1 || true)
    printf '%s\n' "${mirror:-http://deb.debian.org/debian}"
}

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# A command line run as root inside $ROOT, with a clean environment: what root's login sets (the guide's
# `usermod ... $USER` needs $USER; here the person following the guide is root).
in_root() { chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
            PIP_DISABLE_PIP_VERSION_CHECK=1 /bin/bash -o pipefail -c "$1"; }
