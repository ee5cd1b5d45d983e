# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP data phase against a target that lies (tests/fake-target/): the fake
# target serves a small read-only LUN correctly and lies only in its answer
# to one vendor-specific command (sg_raw CDB c0) - or, where said, to the
# LUN scan or to every command. For each lie: the affected command fails
# (or succeeds, when the lie was harmless, or completes on the new channel
# when the lie broke the channel) with a clear kernel log line, the host
# stays usable or reconnects, and logout leaves nothing behind.
# Needs srp-fake-target (tests/fake-target/) in /lab/tools/.
#
# lab-drivers: ours
# lab-provokes: scsi-eh srp-path srp-reconnect wc-error (the fake target lies: commands time out, channels break and reconnect)
# Expectations per mode: tests/fake-target/README.md.
. /lab/lib-hostile.sh

lab_net_up
check "ib_srp loads" lab_srp_load
check "srp-fake-target is in the payload" hostile_have_fake || return 0

# hostile_case MODE ok|fails|retried DMESG_REGEX [FAKE_REGEX]: log in to
# the fake target in MODE, send the trigger, check its outcome, the kernel
# log line, what the fake target saw, that the LUN is still usable, and
# logout. "retried": the channel failed under the command, which the
# midlayer requeues (DID_RESET-like) and the new channel completes.
hostile_case() {
	local mode=$1 want=$2 why=$3 saw=$4 rc
	if ! hostile_login "$mode"; then
		fail "$mode: login"
		hostile_logout
		return
	fi
	hostile_trigger
	rc=$?
	if [ $want = ok ]; then
		check "$mode: the lied-about command succeeds" test $rc -eq 0
	elif [ $want = retried ]; then
		check "$mode: the command completes after the reconnect (sg_raw rc=$rc)" test $rc -eq 0
		check "$mode: it was retried on the new channel" hostile_fake_saw "^TRIGGER conn=2 "
	else
		check "$mode: the lied-about command fails (sg_raw rc=$rc)" test $rc -ne 0
	fi
	check "$mode: fake target told the lie" hostile_fake_saw "^LIE $mode"
	[ -n "$why" ] && check "$mode: kernel log says so" lab_log_has "$why"
	[ -n "$saw" ] && check "$mode: fake target saw /$saw/" hostile_fake_saw "$saw" 30
	check "$mode: rport running" lab_wait 60 hostile_rport_running
	check "$mode: LUN still usable" hostile_usable
	check "$mode: logout" hostile_logout
	check "$mode: no SCSI host or rport left" hostile_no_hosts
}

hostile_case ok ok ""
hostile_case drop fails "" "^TSK_MGMT .*func=0x1"
hostile_case sense-overflow fails "malformed SRP_RSP"
hostile_case resp-overflow fails "malformed SRP_RSP"
hostile_case truncated fails "malformed SRP_RSP \(20 bytes\)"
hostile_case tag-high fails "SRP_RSP for unknown or completed tag 0xdead"
hostile_case tag-other fails "SRP_RSP for unknown or completed tag"
hostile_case dup ok "SRP_RSP for unknown or completed tag"
hostile_case bad-opcode ok "unexpected IU type 0x55"
hostile_case aer ok "asynchronous event for LUN 0" "^AER_RSP .*tag=0x4145520000000001"
hostile_case cred-req ok "" "^CRED_RSP .*tag=0x4352454400000001"
hostile_case aer-bad ok "malformed SRP_AER_REQ for LUN 0 .*answered, event ignored" \
	"^AER_RSP .*tag=0x4145520000000001"
# Credits taken back beyond those held: a protocol error; the channel
# reconnects instead of stalling at zero credits.
hostile_case credit-neg ok \
	"SRP_RSP request limit delta -1000 on [0-9]+ credits leaves the credit count negative; reconnecting" \
	"^LOGIN_REQ n=2"
hostile_case t-logout retried "target logged out" "^LOGIN_REQ n=2"
hostile_case disconnect retried "disconnected by the target" "^LOGIN_REQ n=2"
hostile_case oversize retried "RECV failed" "^LOGIN_REQ n=2"

# A grant that would wrap the credit count: it saturates at INT_MAX.
if hostile_login credit-huge; then
	hostile_trigger
	rc=$?
	check "credit-huge: the lied-about command succeeds (sg_raw rc=$rc)" test $rc -eq 0
	check "credit-huge: fake target told the lie" hostile_fake_saw "^LIE credit-huge"
	check "credit-huge: kernel log says so" \
		lab_log_has "request limit delta 2147483647 on [0-9]+ credits overflows; credit count held at 2147483647"
	check "credit-huge: LUN still usable" hostile_usable
	req_lim=$(cat /sys/class/scsi_host/host$HOSTILE_HOST/req_lim)
	check "credit-huge: req_lim did not wrap ($req_lim)" test "$req_lim" -gt 0
	check "credit-huge: no reconnect" test "$(hostile_fake_count '^LOGIN_REQ')" -eq 1
else
	fail "credit-huge: login"
fi
check "credit-huge: logout" hostile_logout
check "credit-huge: no SCSI host or rport left" hostile_no_hosts

# A residual beyond the transfer (a 4 KiB read said to have left 0x80000000
# bytes unused): the command fails; the midlayer never sees a negative
# count of good bytes.
if hostile_login resid-huge; then
	hostile_trigger_in
	rc=$?
	check "resid-huge: the lied-about command fails (sg_raw rc=$rc)" test $rc -ne 0
	check "resid-huge: fake target told the lie" hostile_fake_saw "^LIE resid-huge"
	check "resid-huge: kernel log says so" \
		lab_log_has "SRP_RSP data-in residual 2147483648 for a 4096-byte transfer .*failing the command"
	check "resid-huge: LUN still usable" hostile_usable
	check "resid-huge: no reconnect" test "$(hostile_fake_count '^LOGIN_REQ')" -eq 1
else
	fail "resid-huge: login"
fi
check "resid-huge: logout" hostile_logout
check "resid-huge: no SCSI host or rport left" hostile_no_hosts

# A SEND of zero bytes before the response: ignored, and said so (it used
# to be logged as an IU of whatever type the buffer held before).
hostile_case zero-send ok "empty IU \(a SEND of 0 bytes\) ignored"
# An SRP_T_LOGOUT of 4 bytes: still a logout, logged as malformed (it used
# to be logged as "no reason given").
hostile_case t-logout-short retried \
	"target logged out with a malformed SRP_T_LOGOUT \(4 bytes, 16 expected\)" "^LOGIN_REQ n=2"

# A thousand SRP_CRED_REQs (+1 credit each) before the response, 16
# unanswered at a time: each is answered with its own tag, the command
# completes, no reconnect.
if hostile_login cred-flood; then
	hostile_trigger 30
	rc=$?
	check "cred-flood: the lied-about command succeeds (sg_raw rc=$rc)" test $rc -eq 0
	check "cred-flood: fake target sent 1000 SRP_CRED_REQs" hostile_fake_saw "^CRED_FLOOD conn=1 sent=1000"
	n=$(grep -c '^CRED_RSP conn=1 tag=0x43524544' $FAKE_LOG)
	check "cred-flood: every one answered ($n SRP_CRED_RSPs)" test "$n" -eq 1000
	check "cred-flood: the last one answered with its tag" \
		hostile_fake_saw "^CRED_RSP conn=1 tag=0x43524544000003e8$"
	check "cred-flood: kernel log has no unanswered request" lab_log_lacks "no IU to answer"
	check "cred-flood: LUN still usable" hostile_usable
	check "cred-flood: no reconnect" test "$(hostile_fake_count '^LOGIN_REQ')" -eq 1
else
	fail "cred-flood: login"
fi
check "cred-flood: logout" hostile_logout
check "cred-flood: no SCSI host or rport left" hostile_no_hosts

# 128 SRP_CRED_REQs at once, none waiting for an answer (cred-burst). The
# fake target keeps its 48 receive buffers until every request has landed,
# so the answers beyond them wait (receiver not ready), each holding a send
# IU: with queue_size=62 (64 send IUs, 64 receives) at least the last 16
# requests find no send IU free. Each is still answered with its own tag once IUs
# free, the command completes, no reconnect (tests/fake-target/README.md).
HOSTILE_EXTRA=queue_size=62
if hostile_login cred-burst; then
	hostile_trigger 60
	rc=$?
	check "cred-burst: the lied-about command succeeds (sg_raw rc=$rc)" test $rc -eq 0
	check "cred-burst: fake target sent 128 SRP_CRED_REQs at once" \
		hostile_fake_saw "^CRED_BURST conn=1 sent=128 "
	n=$(grep -c '^CRED_RSP conn=1 tag=0x43524544' $FAKE_LOG)
	check "cred-burst: every one answered ($n SRP_CRED_RSPs)" test "$n" -eq 128
	n=$(comm -12 <(grep '^CRED_RSP conn=1 ' $FAKE_LOG | sort -u) \
		<(for i in $(seq 1 128); do
			printf 'CRED_RSP conn=1 tag=0x43524544%08x\n' $i
		  done | sort) | wc -l)
	check "cred-burst: each request answered with its own tag ($n of 128 tags)" test "$n" -eq 128
	check "cred-burst: kernel log has no unanswered request" lab_log_lacks "no IU to answer"
	check "cred-burst: LUN still usable" hostile_usable
	check "cred-burst: no reconnect" test "$(hostile_fake_count '^LOGIN_REQ')" -eq 1
else
	fail "cred-burst: login"
fi
check "cred-burst: logout" hostile_logout
check "cred-burst: no SCSI host or rport left" hostile_no_hosts
HOSTILE_EXTRA=

# Two channels: the response to a command comes over the other channel.
# Its tag names a command the receiving channel never sent: logged and
# dropped; the command times out and is aborted on its own channel.
HOSTILE_EXTRA=ch_count=2
if hostile_login tag-xchan; then
	timeout 120 taskset -c 0 sg_raw -R -t 2 /dev/$HOSTILE_DEV c0 00 00 00 00 00 >/tmp/sg_raw.out 2>&1
	rc=$?
	check "tag-xchan: the command fails (sg_raw rc=$rc)" test $rc -ne 0
	check "tag-xchan: the response went over the other channel" \
		hostile_fake_saw "^XCHAN_RSP conn=[12] via=[12] "
	check "tag-xchan: kernel log says so" lab_log_has "SRP_RSP for unknown or completed tag"
	check "tag-xchan: the abort reached the target" hostile_fake_saw "^TSK_MGMT .*func=0x1 "
	check "tag-xchan: LUN still usable" hostile_usable
	check "tag-xchan: no reconnect" test "$(hostile_fake_count '^LOGIN_REQ')" -eq 2
else
	fail "tag-xchan: login"
fi
check "tag-xchan: logout" hostile_logout
check "tag-xchan: no SCSI host or rport left" hostile_no_hosts
HOSTILE_EXTRA=

# log_within SECS REGEX: the kernel log has REGEX within SECS seconds.
log_within() {
	lab_wait "$1" lab_log_has "$2" || lab_log_has "$2"
}

# fake_lacks REGEX: no line of the fake target's log matches (shown if any).
fake_lacks() { ! grep -E "$1" $FAKE_LOG; }

# one_reconnect T0: the host reset's reconnect, done by T0 (an
# $EPOCHREALTIME), stays the only one until reconnect_delay (2 s) + 3 s
# after T0: the reconnect_work the failure armed does not log the new
# connection out and in again (the host reset itself may log connection 1
# out).
one_reconnect() {
	local left
	left=$(awk -v t0="$1" -v now="$EPOCHREALTIME" \
		'BEGIN { l = t0 + 5 - now; printf "%.2f\n", (l > 0 ? l : 0) }')
	sleep "$left"
	! grep -E '^(I_LOGOUT conn=[2-9]|LOGIN_REQ n=[3-9])' $FAKE_LOG &&
		test "$(hostile_fake_count '^LOGIN_REQ')" -eq 2
}

# tmf_lie HOW DMESG_REGEX [FAKE OPTIONS...]: the trigger goes unanswered
# (2 s SCSI timeout) and the ABORT TASK is answered as HOW says (-t): the
# command fails, the kernel log says what was wrong, the error handler
# ends in one reconnect and the LUN is usable again.
tmf_lie() {
	local how=$1 why=$2 rc t0
	shift 2
	if ! hostile_login drop -t "$how" "$@"; then
		fail "TMF $how: login"
		hostile_logout
		return
	fi
	hostile_trigger 2
	rc=$?
	t0=$EPOCHREALTIME
	check "TMF $how: the command fails (sg_raw rc=$rc)" test $rc -ne 0
	check "TMF $how: the ABORT TASK was $how" hostile_fake_saw "^TSK_MGMT .*func=0x1 .*answered"
	if [ "$how" = late ]; then
		check "TMF late: the answer went out over the new connection" \
			hostile_fake_saw "^LATE_RSP conn=1 via=[0-9]+ tag=0x8[0-9a-f]+$" 20
		check "TMF late: no answer left unsent" \
			fake_lacks "^LATE_RSP .*not sent"
	fi
	check "TMF $how: kernel log says so" log_within 10 "$why"
	check "TMF $how: reconnect" hostile_fake_saw "^LOGIN_REQ n=2" 30
	check "TMF $how: rport running" lab_wait 60 hostile_rport_running
	check "TMF $how: no second reconnect within reconnect_delay + 3 s" one_reconnect $t0
	check "TMF $how: LUN still usable" hostile_usable
	check "TMF $how: logout" hostile_logout
	check "TMF $how: no SCSI host or rport left" hostile_no_hosts
}
# Another tag: not this function's answer; it times out (5 s).
tmf_lie wrong-tag "stale task management response"
# No response data: the function failed (abort, then LUN reset), said so.
tmf_lie no-data "task management response 0x[0-9a-f]+ without response data: the function failed"
# 8 s late, after the function timed out and the host reconnected: over
# whichever connection is up then; stale either way.
tmf_lie late "stale task management response" -L 8000

# An unknown IU before every response, under reads: the data stays right.
if hostile_login bad-opcode -o any -n -1; then
	pass "bad-opcode on every command: login and LUN scan"
	check "bad-opcode on every command: 1 MiB read matches the pattern" hostile_pattern_ok 2048
else
	fail "bad-opcode on every command: login and LUN scan"
fi
check "bad-opcode on every command: logout" hostile_logout

# A lie during the LUN scan: the first INQUIRY gets a malformed SRP_RSP.
# It times out and is aborted; the midlayer never retries a timed-out
# passthrough command, so the login ends with no LUN (the in-tree driver
# too). Nothing is lost: a rescan finds the LUN.
m="sense-overflow on the scan's INQUIRY"
hostile_fake_start sense-overflow -o 0x12 -n 1
lab_log_mark
before=$(lab_srp_hosts)
check "$m: add_target succeeds" srp_add_target_ok 0 "$(hostile_target_string)"
for h in $(lab_srp_hosts); do
	echo "$before" | grep -qx "$h" || HOSTILE_HOST=$h
done
check "$m: kernel log says so" lab_log_has "malformed SRP_RSP"
check "$m: the abort TMF reached the target" hostile_fake_saw "^TSK_MGMT .*func=0x1"
check "$m: a rescan finds the LUN" hostile_rescan "$HOSTILE_HOST"
HOSTILE_DEV=$(lab_host_disks "$HOSTILE_HOST" | head -1)
check "$m: LUN usable" hostile_usable
check "$m: logout" hostile_logout

check "no SRP hosts at the end" hostile_no_hosts
check "ib_srp unloads" lab_unload ib_srp
