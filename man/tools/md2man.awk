# md2man.awk: converts distkit's man page sources (a small Markdown subset,
# man/<page>.<section>.md) into roff for man(7), with nothing but POSIX awk,
# so the pages build on a stock Debian or macOS without pandoc or ronn.
#
# Supported (see man/tools/README.md):
#   # name(5) -- one-line description     first line: .TH and NAME section
#   ## SECTION                             .SH
#   ### Subsection                         .SS
#   text lines                             paragraphs, blank line between
#   - item (continued by indented lines)   bullet list
#   term                                   tagged paragraph (.TP): a line,
#   : definition (continued, indented)     then ": " and its definition
#   ``` ... ```                            literal block (no formatting)
#   `code`  **bold**  *italic*             inline fonts
# Output is deterministic (no date), so the generated page can be committed
# and checked for staleness.

function esc(s) {
  gsub(/\\/, "\\e", s)
  gsub(/-/, "\\-", s)
  return s
}

# Leading '.' or '\'' would be read as a roff request.
function guard(s) {
  if (s ~ /^[.']/) return "\\&" s
  return s
}

function inline(s,    out, i, c, rest, code, bold, ital) {
  out = ""; code = 0; bold = 0; ital = 0
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    rest = substr(s, i)
    if (c == "`") {
      out = out (code ? "\\fR" : "\\fB"); code = !code; continue
    }
    if (!code && substr(rest, 1, 2) == "**") {
      out = out (bold ? "\\fR" : "\\fB"); bold = !bold; i++; continue
    }
    if (!code && c == "*" && (ital || substr(rest, 2, 1) != " ")) {
      out = out (ital ? "\\fR" : "\\fI"); ital = !ital; continue
    }
    out = out esc(c)
  }
  return guard(out)
}

function para_break() {
  if (state == "text") print ".PP"
}

{ lines[++n] = $0 }

END {
  state = "start"
  for (i = 1; i <= n; i++) {
    line = lines[i]
    if (i == 1) {
      if (line !~ /^# [^ ]+\([0-9a-z]+\) -- /) {
        print "md2man: line 1 must be '# name(section) -- description'" > "/dev/stderr"
        exit 1
      }
      name = substr(line, 3); sub(/\(.*$/, "", name)
      section = line; sub(/^[^(]*\(/, "", section); sub(/\).*$/, "", section)
      desc = line; sub(/^[^)]*\) -- /, "", desc)
      print ".TH \"" toupper(name) "\" \"" section "\" \"\" \"distkit\" \"distkit manual\""
      print ".SH NAME"
      print esc(name) " \\- " inline(desc)
      state = "heading"
      continue
    }
    if (infence) {
      if (line ~ /^```/) { print ".fi"; print ".RE"; infence = 0; state = "text"; continue }
      print guard(esc(line))
      continue
    }
    if (line ~ /^```/) {
      para_break(); if (state != "text") print ".PP"
      print ".RS 4"; print ".nf"; infence = 1; continue
    }
    if (line ~ /^## /) { print ".SH " esc(substr(line, 4)); state = "heading"; continue }
    if (line ~ /^### /) { print ".SS " esc(substr(line, 5)); state = "heading"; continue }
    if (line ~ /^[ \t]*$/) { if (state != "heading") state = "blank"; continue }
    if (line ~ /^- /) { print ".IP \\(bu 2"; print inline(substr(line, 3)); state = "item"; continue }
    if (line ~ /^: /) { print inline(substr(line, 3)); state = "item"; continue }
    if (i < n && lines[i + 1] ~ /^: / && line !~ /^  /) {
      print ".TP"; print inline(line); state = "item"; continue
    }
    if (line ~ /^  / && state == "item") { sub(/^ +/, "", line); print inline(line); continue }
    if (state == "blank" || state == "item") print ".PP"
    print inline(line)
    state = "text"
  }
  if (infence) { print "md2man: unterminated ``` block" > "/dev/stderr"; exit 1 }
}
