#!/usr/bin/env bash
# Installs the Debian packages the tests drive (Chromium, socat, gcc, PostgreSQL...), only those missing, so a second
# run costs nothing. CI runs on a fresh clone as root; elsewhere sudo is used.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v socat    >/dev/null 2>&1 || need+=(socat)
command -v gcc      >/dev/null 2>&1 || need+=(gcc)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
fc-list 2>/dev/null | grep -qi dejavu || need+=(fonts-dejavu-core)
# the table's firmware (make firmware, make flash) and its simulated board (the tests run the real binary)
command -v avr-gcc  >/dev/null 2>&1 || need+=(gcc-avr binutils-avr)
[ -f /usr/lib/avr/include/avr/io.h ] || need+=(avr-libc)
command -v avrdude  >/dev/null 2>&1 || need+=(avrdude)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists simavr 2>/dev/null || need+=(libsimavr-dev)
pkg-config --exists libelf 2>/dev/null || need+=(libelf-dev)
# The tournament hall's database (the tests start their own cluster; nats-server comes from PyPI).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ ${#need[@]} -eq 0 ] && exit 0
echo "system-deps: installing ${need[*]}" >&2
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
