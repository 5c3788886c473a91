#!/usr/bin/env bash
# Installs what building tether needs and the machine lacks: clang-19, libc++ 19, cmake, and
# LLVM 19's tools (llvm-profdata, llvm-cov: `tether coverage cargo` and its test read Rust
# coverage profiles with them), and Neovim (its LSP client is one of the tests' editors).
# LadybugDB's C++20 engine (crate `lbug`) needs <format>, which Debian 12's GCC 12 lacks;
# clang-19 with libc++ builds it (see ARCHITECTURE.md, "Building"). Idempotent and quiet
# when everything is present.
set -euo pipefail

missing=()
command -v clang-19 >/dev/null 2>&1 || missing+=(clang-19)
command -v clang++-19 >/dev/null 2>&1 || missing+=(clang-19)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
[ -e /usr/lib/llvm-19/lib/libc++.so ] || [ -e /usr/lib/llvm-19/lib/libc++.a ] || missing+=(libc++-19-dev)
[ -e /usr/lib/llvm-19/lib/libc++abi.so ] || [ -e /usr/lib/llvm-19/lib/libc++abi.a ] || missing+=(libc++abi-19-dev)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v llvm-profdata-19 >/dev/null 2>&1 || missing+=(llvm-19)
command -v llvm-cov-19 >/dev/null 2>&1 || missing+=(llvm-19)
# Neovim's own LSP client drives `tether lsp` in the integration tests.
command -v nvim >/dev/null 2>&1 || missing+=(neovim)

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
# Deduplicate.
packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
echo "install-build-deps: installing ${packages}" >&2
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-build-deps: need root (or sudo) to run: apt-get install -y ${packages}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
# shellcheck disable=SC2086
"${as_root[@]}" apt-get install -y -qq ${packages} >/dev/null
