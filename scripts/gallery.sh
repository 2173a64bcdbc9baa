#!/usr/bin/env bash
# gallery.sh refreshes the screenshots of docs/gallery.md: it runs the
# gallery test on the result shapes only (headless Chromium; the test also
# checks every shape at 700 and 400 px in light and dark), then copies the
# 700 px light screenshot of each shape to docs/gallery/NAME.png (the 400 px
# one for a shape about narrow hosts, NAME ending in -narrow).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && GENUI_GALLERY_ONLY=shape- GENUI_UI_SHOTS="$tmp" go test -count=1 -run '^TestOfflineUIGallery$' ./engine/gen/)
mkdir -p "$root/docs/gallery"
rm -f "$root"/docs/gallery/*.png
n=0
for f in "$tmp"/shape-*-700-light.png "$tmp"/shape-*-narrow-400-light.png; do
	[ -e "$f" ] || continue
	name="$(basename "$f" .png)"
	name="${name%-700-light}"
	name="${name%-400-light}"
	cp "$f" "$root/docs/gallery/${name#shape-}.png"
	n=$((n + 1))
done
echo "gallery: $n screenshots in docs/gallery/"
