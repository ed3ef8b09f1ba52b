#!/bin/sh
# Behaviour tests for md2man.awk: each case feeds a small source and compares
# the exact roff produced. Exit 0 when all pass, 1 otherwise.
set -eu
awkfile="$(cd "$(dirname "$0")" && pwd)/md2man.awk"
fails=0

# expect <name> <source> <expected roff>
expect() {
  got=$(printf '%s\n' "$2" | awk -f "$awkfile" 2>&1) || true
  if [ "$got" != "$3" ]; then
    printf 'FAIL %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$3" "$got" >&2
    fails=$((fails + 1))
  fi
}

head='# x-y(5) -- a `b` page'
th='.TH "X-Y" "5" "" "distkit" "distkit manual"
.SH NAME
x\-y \- a \fBb\fR page'

expect "title line makes .TH and NAME" "$head" "$th"

expect "headings, paragraphs and inline fonts" "$head
## DESCRIPTION
Some **bold** and *italic* text,
a \`--flag\` and a back\\slash.

Second paragraph." "$th
.SH DESCRIPTION
Some \fBbold\fR and \fIitalic\fR text,
a \fB\-\-flag\fR and a back\eslash.
.PP
Second paragraph."

expect "term and definition make .TP, indented lines continue it" "$head
## FIELDS
\`ssh\`
: the name
  to connect to" "$th
.SH FIELDS
.TP
\fBssh\fR
the name
to connect to"

expect "bullets and literal blocks" "$head
## LIST
- one
- two *words* here
\`\`\`
.dot line -x *y*
\`\`\`" "$th
.SH LIST
.IP \(bu 2
one
.IP \(bu 2
two \fIwords\fR here
.PP
.RS 4
.nf
\&.dot line \-x *y*
.fi
.RE"

expect "a bad title line is refused" "no title" "md2man: line 1 must be '# name(section) -- description'"

if [ "$fails" -ne 0 ]; then echo "selftest: $fails case(s) failed" >&2; exit 1; fi
echo "selftest: all cases passed"
