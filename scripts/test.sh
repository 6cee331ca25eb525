#!/usr/bin/env bash
# Set up, build, and run every test (one CTest test per suite).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

ctest --test-dir "$DRP_BUILD" --output-on-failure -j"$(nproc)" "$@"
