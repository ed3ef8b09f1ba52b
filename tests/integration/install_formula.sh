# The Homebrew formula renders from a release tarball: scripts/release-formula.sh
# fills in the tarball's real SHA-256, its URL and the homepage, leaves no
# placeholder, refuses bad arguments with exit 2, and the formula's
# `test do` expectation ("distconfig <version>") is what the built tool prints.
. "$(dirname "$0")/install_lib.sh"
RF="$SRC/scripts/release-formula.sh"
version=$(sed -n 's/^project(distkit VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
tar -C "$SRC/tests/install" -czf "$WORK/distkit-$version.tar.gz" consumer
url="https://example.org/releases/distkit-$version.tar.gz"
sh "$RF" "$WORK/distkit-$version.tar.gz" "$url" https://example.org/distkit "$WORK/distkit.rb"

sum=$(sha256sum <"$WORK/distkit-$version.tar.gz" | cut -d' ' -f1)
expect_line "$WORK/distkit.rb" "  sha256 \"$sum\""
expect_line "$WORK/distkit.rb" "  url \"$url\""
expect_line "$WORK/distkit.rb" "  homepage \"https://example.org/distkit\""
expect_line "$WORK/distkit.rb" "  depends_on \"libssh2\""
expect_line "$WORK/distkit.rb" "  depends_on \"catch2\" => :test"
! grep -n '@[A-Z0-9]*@' "$WORK/distkit.rb" || fail "placeholders left in the formula"
if command -v ruby >/dev/null 2>&1; then ruby -c "$WORK/distkit.rb" >/dev/null || fail "formula is not valid Ruby"; fi
grep -qF 'assert_match "distconfig #{version}", shell_output("#{bin}/distconfig --version")' "$WORK/distkit.rb" ||
  fail "formula test does not run distconfig --version"
expect_eq "$("$BUILD/apps/distconfig" --version)" "distconfig $version" "distconfig --version vs project version"

rc=0
sh "$RF" "$WORK/distkit-$version.tar.gz" 'https://x/a"b' https://example.org 2>"$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status for a quote in the URL"
expect_line "$WORK/err" "release-formula.sh: error: 'https://x/a\"b' has a quote, backslash, space or #{; usage: release-formula.sh TARBALL URL HOMEPAGE [OUT]"
rc=0
sh "$RF" "$WORK/missing.tar.gz" "$url" https://example.org 2>"$WORK/err" || rc=$?
expect_eq "$rc" 1 "exit status for a missing tarball"
expect_line "$WORK/err" "release-formula.sh: error: $WORK/missing.tar.gz: cannot read; give the release tarball"
echo PASS
