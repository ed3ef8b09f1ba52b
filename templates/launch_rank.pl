# distlaunch rank wrapper, perl edition (templates/launch_rank.pl): what
# templates/launch_rank.sh does, in one process. The sh wrapper starts six
# to eight programs per rank (mktemp, readlink, perl or setsid, rm, sleep,
# subshells for the stdin reader and the watchdog); this one starts only
# the rank: its fork/exec, select() and file calls are perl built-ins, and
# it loads no module (Time::HiRes or POSIX alone cost more than the rest).
# Run as `perl -e CODE -- ARGS` by the sh entry (launch_rank_entry.sh) on
# hosts that have perl (every Mac, every Debian: perl-base). Full-line
# comments are stripped before it is sent.
# ARGS: rank stall_limit grace_ticks heartbeat_limit cwd cwd_required
#       stdin_forwarded nfiles, then nfiles triples (variable, file name,
#       content), then the command and its arguments.
# Stdin protocol, one frame per line: "S <secret>" first, then "H"
# heartbeat, "D <n>" + n raw bytes for the rank's stdin, "E" end of that
# stdin, "G <SIGNAL>" signal the group, "T" terminate (TERM, KILL after
# grace), "K" kill. End of stdin without "T" means the launcher is gone.
my ($rank, $stall_limit, $grace_ticks, $hb_limit, $want_cwd, $cwd_required, $fwd, $nfiles) =
  splice(@ARGV, 0, 8);
my @files = splice(@ARGV, 0, 3 * $nfiles);
my @cmd = @ARGV;
my ($pid, $status, $d, $wfh, $stalled, $hb_mtime) = (0, undef, '', undef, 0, -1);
my ($in, $out, $eof, $signalled, $last_frame) = ('', '', 0, 0, time);
my $me = '';
if (open(my $h, '<', '/proc/sys/kernel/hostname')) { $me = <$h>; close $h }
if (!defined $me || $me !~ /\S/) { require Sys::Hostname; $me = eval { Sys::Hostname::hostname() } }
$me = '?' if !defined $me || $me !~ /\S/;
chomp $me;
sub say_ { print STDERR "distlaunch: rank $rank on $me: $_[0]\n" }
$SIG{PIPE} = 'IGNORE';
$SIG{CHLD} = sub { };
$SIG{HUP} = sub { $signalled ||= 129 };
$SIG{TERM} = sub { $signalled ||= 143 };
$SIG{INT} = sub { $signalled ||= 130 };
sub rmtree {
  my ($p) = @_;
  if (-d $p && !-l $p) {
    if (opendir(my $dh, $p)) {
      for my $e (readdir $dh) { rmtree("$p/$e") if $e ne '.' && $e ne '..' }
      closedir $dh;
    }
    rmdir $p;
  } else {
    unlink $p;
  }
}
sub finish {
  kill('TERM', -$pid) if $pid;
  rmtree($d) if $d ne '';
  exit $_[0];
}
# The owner of a temp dir: host name plus, where the OS shows it (Linux),
# the PID namespace; hosts that share /tmp but not PIDs (containers, test
# hosts of the same name) must never take each other's live ranks for dead.
my $owner = $me;
if (-e '/proc/self/ns/pid') {
  my $ns = readlink('/proc/self/ns/pid');
  $owner = "$me/$ns" if defined $ns && $ns ne '';
}
my $tmp = (defined $ENV{TMPDIR} && $ENV{TMPDIR} ne '') ? $ENV{TMPDIR} : '/tmp';
# A wrapper killed with SIGKILL cannot clean up: remove the dirs of this
# host's wrappers that are gone. ESRCH (3 on Linux and macOS) only: EPERM
# means the owner lives under another user. One rank of a host per job
# (local rank 0) is enough: with all of them, n ranks read n^2 owner files.
if ((!defined $ENV{DISTKIT_LOCAL_RANK} || $ENV{DISTKIT_LOCAL_RANK} eq '0') && opendir(my $dh, $tmp)) {
  for my $e (readdir $dh) {
    next unless $e =~ /^distlaunch\./;
    open(my $o, '<', "$tmp/$e/owner") or next;
    my ($oh, $op) = split(' ', scalar(<$o>) // '');
    close $o;
    next unless defined $op && $oh eq $owner && $op =~ /^[0-9]+$/;
    rmtree("$tmp/$e") if !kill(0, $op) && $! == 3;
  }
  closedir $dh;
}
# mkdir is atomic and does not follow a symlink planted at the name, so a
# random name retried on EEXIST (17) is as safe as mktemp -d.
my @chars = ('a' .. 'z', 'A' .. 'Z', '0' .. '9');
for (1 .. 100) {
  my $try = "$tmp/distlaunch." . join('', map { $chars[rand @chars] } 1 .. 8);
  if (mkdir($try, 0700)) { $d = $try; last }
  last if $! != 17;
}
if ($d eq '') { say_('cannot create a temp dir; check free space and TMPDIR'); exit 126 }
if (open(my $o, '>', "$d/owner")) { print $o "$owner $$\n"; close $o }
# A group is gone when no member is left but zombies (which kill 0 sees).
sub gone {
  return 1 unless kill(0, -$pid);
  for (`ps -A -o pgid= -o stat= 2>/dev/null`) {
    my ($g, $s) = split;
    return 0 if defined $s && $g == $pid && $s !~ /^Z/;
  }
  return 1;
}
sub reap {
  return if defined $status || !$pid;
  $status = $? if waitpid($pid, 1) == $pid;  # 1: WNOHANG on Linux and macOS
}
sub stop_group {
  return unless $pid;
  reap();
  kill('TERM', -$pid) or return;
  my ($left, $wait) = ($grace_ticks * 0.1, 0.005);
  while ($left > 0) {
    reap();
    return unless kill(0, -$pid);
    # ps only once the rank itself is gone (members left may be zombies).
    return if defined $status && gone();
    # SIGCHLD cuts the wait short, unless it came just before it: short
    # waits first, so a rank that dies at once is not waited for long.
    select(undef, undef, undef, $wait);
    $left -= $wait;
    $wait = $wait * 2 > 0.1 ? 0.1 : $wait * 2;
  }
  kill('KILL', -$pid);
}
# Reads what stdin has within $wait seconds (and writes queued bytes to the
# rank's stdin pipe when it can take them). Returns on the first event.
sub pump {
  my ($wait) = @_;
  my ($rin, $win) = ('', '');
  # Backpressure: with 1 MiB queued for a rank that is not reading, stop
  # reading frames (the SSH window then holds the launcher back).
  vec($rin, 0, 1) = 1 unless $eof || length($out) > 1048576;
  vec($win, fileno($wfh), 1) = 1 if $wfh && $out ne '';
  my $n = select(my $r = $rin, my $w = $win, undef, $wait);
  return if $n <= 0;
  if ($rin ne '' && vec($r, 0, 1)) {
    my $got = sysread(STDIN, $in, 65536, length $in);
    $eof = 1 if defined $got && $got == 0;
    $eof = 1 if !defined $got && $! != 4;  # 4: EINTR
  }
  if ($win ne '' && vec($w, fileno($wfh), 1)) {
    # 512 bytes (PIPE_BUF on macOS) always fit once select says writable.
    my $put = syswrite($wfh, $out, 512);
    if (defined $put) { substr($out, 0, $put) = '' }
    elsif ($! != 4) { close $wfh; $wfh = undef; $out = '' }
  }
}
# The next complete frame from $in, or undef. Data frames carry their bytes.
sub next_frame {
  my $nl = index($in, "\n");
  return undef if $nl < 0;
  my $f = substr($in, 0, $nl);
  if ($f =~ /^D ([0-9]+)$/) {
    return undef if length($in) < $nl + 1 + $1;
    my $data = substr($in, $nl + 1, $1);
    substr($in, 0, $nl + 1 + $1) = '';
    return ['D', $data];
  }
  substr($in, 0, $nl + 1) = '';
  return [$f];
}
# The first frame carries the secret; it must come within the heartbeat
# limit, else the launcher was killed or cut before sending it.
my $start = time;
my $secret;
while (!defined $secret) {
  finish($signalled) if $signalled;
  my $f = next_frame();
  if ($f) {
    if ($f->[0] !~ /^S (.+)$/) { say_('protocol error: no secret frame from the launcher'); finish(125) }
    $secret = $1;
    last;
  }
  if ($eof) { say_('the launcher closed the connection before the start'); finish(125) }
  if (time - $start >= $hb_limit + 1) {
    say_("no start frame from the launcher for ${hb_limit}s; giving up");
    finish(143);
  }
  pump(0.05);
}
{
  my $old = umask(077);
  my $s;
  my $ok = open($s, '>', "$d/secret") && print($s "$secret\n") && close($s);
  umask($old);
  if (!$ok) { say_("cannot write $d/secret"); finish(126) }
}
$ENV{DISTKIT_SECRET_FILE} = "$d/secret";
$ENV{DISTKIT_HEARTBEAT_FILE} = "$d/heartbeat";
while (@files) {
  my ($var, $name, $content) = splice(@files, 0, 3);
  my $f;
  my $ok = open($f, '>', "$d/$name") && print($f "$content\n") && close($f);
  if (!$ok) { say_("cannot write $d/$name"); finish(126) }
  $ENV{$var} = "$d/$name";
}
if ($want_cwd ne '' && !chdir($want_cwd) && $cwd_required) {
  say_("cannot cd to $want_cwd; create it there or fix --cwd");
  finish(126);
}
# The rank's stdin: a pipe we feed from D frames, or /dev/null.
my $rfh;
if ($fwd) {
  if (!pipe($rfh, $wfh)) { say_("cannot create a pipe: $!"); finish(126) }
}
$last_frame = time;
$pid = fork();
if (!defined $pid) { $pid = 0; say_("cannot fork: $!"); finish(126) }
if ($pid == 0) {
  # The rank: its own process group, default signal dispositions (ours
  # would otherwise be inherited across exec for PIPE), stdin from the pipe.
  $SIG{$_} = 'DEFAULT' for qw(HUP INT QUIT TERM PIPE CHLD);
  # A signal sent to the group before that line ran our handler: send it
  # again now that it kills (a rank stopped at once must not miss it).
  kill($signalled == 129 ? 'HUP' : $signalled == 130 ? 'INT' : 'TERM', $$) if $signalled;
  setpgrp(0, 0);
  if ($fwd) { open(STDIN, '<&', $rfh); close $rfh; close $wfh }
  else { open(STDIN, '<', '/dev/null') }
  exec { $cmd[0] } @cmd;
  print STDERR "distlaunch: rank $rank on $me: cannot run $cmd[0]: $!\n";
  exit 127;
}
# Also from here, so the group exists before any signal we send to it.
setpgrp($pid, $pid);
close $rfh if $rfh;
print STDERR "\@\@distlaunch:pid $pid\n";
my $tick = time;
my $close_after = 0;
# The loop's wait: SIGCHLD ends it early, but perl runs handlers between
# statements, so one that lands after reap() and before select() is seen
# only when the wait ends. Short waits while the rank is young (one that
# exits at once is common) and up to 0.25 s after that.
my $wait = 0.005;
while (1) {
  reap();
  last if defined $status;
  if ($signalled) { stop_group(); finish($signalled) }
  while (my $f = next_frame()) {
    $last_frame = time;
    my $k = $f->[0];
    if ($k eq 'D') { $out .= $f->[1] if $wfh }
    elsif ($k eq 'E') { $close_after = 1 }
    elsif ($k =~ /^G ([A-Z0-9]+)$/) { kill($1, -$pid) }
    elsif ($k eq 'T') { stop_group(); $eof = 2; last }
    elsif ($k eq 'K') { kill('KILL', -$pid) }
  }
  if ($close_after && $wfh && $out eq '') { close $wfh; $wfh = undef }
  last if $eof == 2;  # stopped by a T frame
  if ($eof) {
    # Stop first, then say: with the link cut, a full stderr pipe can block
    # the message for as long as sshd takes to notice.
    stop_group();
    say_('lost the launcher (connection closed); stopping the rank');
    last;
  }
  if (time != $tick) {
    $tick = time;
    # Heartbeats queue behind stdin data we are not reading: no miss then.
    $last_frame = time if length($out) > 1048576;
    if (time - $last_frame >= $hb_limit + 1) {
      stop_group();
      say_("no heartbeat from the launcher for ${hb_limit}s; stopping the rank");
      last;
    }
    # The rank's own heartbeat: once it has created the file, no update for
    # stall_limit seconds is reported as a stall (not stopped).
    # Measured from the file's mtime (whole seconds, the same clock as
    # time), so the report does not depend on when we happened to look.
    my $mt = (stat("$d/heartbeat"))[9];
    if ($stall_limit > 0 && defined $mt) {
      if ($stalled && $mt != $hb_mtime) {
        say_('heartbeat resumed after ' . ($mt - $hb_mtime) . 's');
        $stalled = 0;
      }
      $hb_mtime = $mt;
      if (!$stalled && time - $mt > $stall_limit) {
        say_("stalled: no heartbeat for ${stall_limit}s (DISTKIT_HEARTBEAT_FILE not updated)");
        $stalled = 1;
      }
    }
  }
  pump($wait);
  $wait = $wait * 2 > 0.25 ? 0.25 : $wait * 2;
}
# The rank has ended or was stopped: whatever it left in its group is
# stopped before we leave, and we exit as a shell would for it.
stop_group();
while (!defined $status) { my $w = waitpid($pid, 0); $status = $? if $w == $pid; last if $w < 0 }
$status //= 0;
finish(($status & 127) ? 128 + ($status & 127) : ($status >> 8));
