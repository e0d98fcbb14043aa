#!/usr/bin/env bash
# Re-creates public/fonts/*-subset.woff2 from the @fontsource packages: Latin, Latin-1 and the
# typographic punctuation the site uses, with only the layout features it needs. Other characters
# fall back to the system font. The italic face only sets the logo and short display phrases, so it
# keeps printable ASCII and is preloaded like the others.
# Needs fontTools with brotli (Debian: python3-fonttools python3-brotli; PYTHON picks the interpreter).
# Give the output new file names: /fonts is served as immutable.
set -euo pipefail
cd "$(dirname "$0")/.."
unicodes="U+0020-007E,U+00A0-00FF,U+0131,U+0152-0153,U+02C6,U+02DA,U+02DC,U+2013-2014,U+2018-201A,U+201C-201E,U+2022,U+2026,U+2032-2033,U+2039-203A,U+2044,U+20AC,U+2122,U+2190-2193,U+2212,U+2215,U+00D7"
ascii="U+0020-007E,U+2019"
features="kern,liga,calt,tnum,ccmp,locl,mark,mkmk"
subset() {
  "${PYTHON:-python3}" -m fontTools.subset "$1" --unicodes="${3:-$unicodes}" --layout-features="$features" --flavor=woff2 --output-file="public/fonts/$2"
}
subset node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2 inter-latin-wght-subset.woff2
subset node_modules/@fontsource/fraunces/files/fraunces-latin-400-normal.woff2 fraunces-latin-400-normal-subset.woff2
subset node_modules/@fontsource/fraunces/files/fraunces-latin-500-normal.woff2 fraunces-latin-500-normal-subset.woff2
subset node_modules/@fontsource/fraunces/files/fraunces-latin-400-italic.woff2 fraunces-latin-400-italic-ascii.woff2 "$ascii"
ls -l public/fonts/*.woff2
