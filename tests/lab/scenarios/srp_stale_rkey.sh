# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Once a command has completed, the target cannot reach its memory (issue
# 16, finding 1; docs/srp.md "When the target's access ends"). The fake
# target (tests/fake-target/) lies about a 4 KiB data-in (or data-out)
# vendor command, lets the command complete, then probes: it RDMA WRITEs
# (READs) the command's rkey/VA from the SRP_CMD, over the command's own
# connection or over the other channel of the same initiator (-X,
# ch_count=2: per-channel PDs must confine an rkey to its own QP). Pass:
# the probe's work request fails (remote access error, or the QP is in the
# error state). Lies: a negative credit delta in the very response, an
# SRP_T_LOGOUT followed by the response, an ABORT TASK left unanswered
# followed by the response, and, for the cross-channel PD check, a
# command still outstanding, and a disconnect (smoke checks only, at the
# end).
# Needs srp-fake-target (tests/fake-target/) in /lab/tools/.
#
# lab-drivers: ours
# lab-provokes: scsi-eh srp-path srp-reconnect wc-error qp-error (the fake target probes rkeys after completion: remote access errors, broken channels)
# lab-timeout: 900
. /lab/lib-hostile.sh

lab_net_up
check "ib_srp loads" lab_srp_load
check "srp-fake-target is in the payload" hostile_have_fake || return 0
modprobe sg 2>/dev/null

# probe_after NAME: the probe failed; its line (and a late answer's) go to
# the log either way; the host recovers and logs out cleanly.
probe_after() {
	check "$1: the stale-rkey probe fails" hostile_probe_failed 60
	lab_note "$1: $(grep -E '^(PROBE|LATE_RSP) ' $FAKE_LOG | tr '\n' ' ')"
	check "$1: rport running" lab_wait 90 hostile_rport_running
	check "$1: LUN still usable" hostile_usable
	check "$1: logout" hostile_logout
	check "$1: no SCSI host or rport left" hostile_no_hosts
}

# probe_case NAME TRIGGER MODE [FAKE OPTIONS...]: the lie in the answer to
# TRIGGER (hostile_trigger_in or _out), which must complete first.
probe_case() {
	local name=$1 trigger=$2 mode=$3 rc
	shift 2
	if ! hostile_login "$@"; then
		fail "$name: login"
		hostile_logout
		return
	fi
	$trigger
	rc=$?
	check "$name: the lied-about command completes (sg_raw rc=$rc)" test $rc -eq 0
	check "$name: fake target told the lie" hostile_fake_saw "^LIE $mode "
	probe_after "$name"
}

# A negative credit delta: the same SRP_RSP completes the command and
# takes the channel down (it reconnects after reconnect_delay).
probe_case "credit-neg, data-out" hostile_trigger_out credit-neg -P 300

# tmf_case NAME [FAKE OPTIONS...]: ABORT TASK left unanswered, then the
# aborted command's SRP_RSP. The driver gives up on the TMF after 5 s and
# takes the channel down; the response 6 s after the abort completes the
# command there. A second dropped command, still outstanding, keeps the
# SCSI error handler (and its host reset) waiting; reconnect_delay 20 s
# keeps the QP up until well after the probe.
tmf_case() {
	local name=$1 hold rc
	shift
	if ! hostile_login drop -n 2 -T -L 6000 -P 300 "$@"; then
		fail "$name: login"
		hostile_logout
		return
	fi
	echo 20 > /sys/class/srp_remote_ports/port-$HOSTILE_HOST:1/reconnect_delay
	taskset -c 0 sg_raw -R -t 60 /dev/$HOSTILE_DEV c0 00 00 00 00 00 >/dev/null 2>&1 &
	hold=$!
	check "$name: the held command reaches the target" hostile_fake_saw "^LIE drop "
	hostile_trigger_in 8
	rc=$?
	check "$name: the aborted command fails (sg_raw rc=$rc)" test $rc -ne 0
	check "$name: the ABORT TASK reached the target" \
		hostile_fake_saw "^TSK_MGMT .*func=0x1 .*unanswered"
	check "$name: the late response went out" hostile_fake_saw "^LATE_RSP conn=[0-9]+ tag=[^ ]*$" 30
	check "$name: kernel log: no TMF response" lab_log_has "task management function 0x1 .*no response"
	probe_after "$name"
	wait $hold
}
tmf_case "unanswered ABORT TASK + response"

# Two channels: the probe goes over the channel the command did not use.
HOSTILE_EXTRA=ch_count=2
# The command is still outstanding (its rkey legitimately valid on its
# own QP): no other QP of the initiator may use it.
if hostile_login drop -P 1000 -X; then
	hostile_trigger_in 20 &
	trig=$!
	check "other channel, outstanding command: the stale-rkey probe fails" hostile_probe_failed 60
	lab_note "other channel, outstanding command: $(grep '^PROBE ' $FAKE_LOG)"
	wait $trig
	check "other channel, outstanding command: rport running" lab_wait 90 hostile_rport_running
	check "other channel, outstanding command: LUN still usable" hostile_usable
else
	fail "other channel, outstanding command: login"
fi
check "other channel, outstanding command: logout" hostile_logout
tmf_case "unanswered ABORT TASK + response, other channel" -X
HOSTILE_EXTRA=

# On a driver that lets the target in, the probes below write into pages
# the host has freed: they come last.
probe_case "credit-neg, data-in" hostile_trigger_in credit-neg -P 300
# SRP_T_LOGOUT, then the command's SRP_RSP 100 ms later.
probe_case "t-logout + response" hostile_trigger_in t-logout -L 100 -P 300
# The target disconnects the command's channel (its own QP is gone) and
# probes over the other one. Never seen failing: the driver before d173f60
# also tore the channel down (drain, then its MRs deregistered) before the
# probe, and since each channel has a protection domain of its own the
# probe over the other channel cannot reach the command's rkey whatever
# the teardown does: a teardown bug alone cannot turn them red (the
# "other channel, outstanding command" case above is the PD's evidence).
# So these are smoke checks of a target that disconnects mid-command,
# named so (issue 33, item 8).
HOSTILE_EXTRA=ch_count=2
m="disconnect, other channel (smoke)"
if hostile_login disconnect -P 1000 -X; then
	hostile_trigger_in 20
	lab_note "$m: sg_raw rc=$?"
	check "$m: fake target told the lie" hostile_fake_saw "^LIE disconnect "
	probe_after "$m"
else
	fail "$m: login"
	hostile_logout
fi
HOSTILE_EXTRA=

# Removal of a target that stalls our send queue (issue 32, item 2). The
# target leaves a 4 KiB read unanswered and posts no receive buffer again
# (stall: its SRP_CRED_REQs make us fill those still posted), so every
# SEND of ours waits, receiver not ready, for ever; keep-alive is off (a
# target can force that by refusing its probe). Then "delete": the read
# times out while scsi_remove_host() waits for it, its ABORT TASK stalls
# behind it, the channel is marked down after 5 s with its QP still up,
# the host reset cannot reconnect a target being removed, and the error
# handler completes the read to sg_raw. The target probes the read's
# buffer every 2 ms from the stall on (-R). A subshell appends
# TRIGGER_DONE to the target's log (both append) when sg_raw returns, so
# the log orders every probe against the completion.
stall_probe_before() {
	awk '/^TRIGGER_DONE/ { exit } /^PROBE .* status=success$/ { n++ }
	     END { print n + 0 " successful probes before the completion"; exit !n }' $FAKE_LOG
}
# After the completion the QP must not let the write in. Here it cannot
# stay up (the target is being removed: the driver moves it to the error
# state and drains it before the error handler completes the read, and
# disconnects it soon after), so remote access error is not what to
# expect: a QP in the error state answers nothing. So: no probe succeeds
# once TRIGGER_DONE is in the log; the series (it stops at its first
# failure) ends with a probe the command's QP never answered; and the
# driver logged the fence. With the channel's own PD no other QP can use
# the rkey. What this cannot see is a window between the completion and
# the teardown shorter than sg_raw's return plus the subshell's echo
# (tens of ms here): main's driver had one of about 40 ms (and panicked
# at its end, boot 20261206-182220).
stall_probe_after() {
	awk '/^TRIGGER_DONE/ { done = 1; next }
	     /^PROBE_POST / { last = $0; sub(/.* seq=/, "", last) }
	     /^PROBE / {
		st = $0; sub(/.* status=/, "", st)
		sq = $0; sub(/.* seq=/, "", sq); sub(/ .*/, "", sq)
		end[sq] = st
		if (done) { print "after the completion: " st; if (st == "success") bad++ }
	     }
	     END {
		if (!done) { print "no TRIGGER_DONE"; exit 1 }
		st = end[last]
		print "last probe posted (seq " last "): " st
		ok = st ~ /^no completion/ || st == "transport retry counter exceeded" ||
		     st == "Work Request Flushed Error"
		exit !(ok && !bad)
	     }' $FAKE_LOG | sort | uniq -c
	[ ${PIPESTATUS[0]} -eq 0 ] &&
		lab_log_has "$1: [0-9]+ channel QPs moved to the error state and drained"
}
# stall_judge FENCE: the end of a stall case m, once sg_raw has returned:
# the read failed, the probe reached its buffer while it was outstanding
# and none got in from its completion on, the driver logged the fence
# (FENCE, what it says fenced), and nothing is left behind.
stall_judge() {
	local rc
	rc=$(sed -n 's/^TRIGGER_DONE rc=//p' $FAKE_LOG)
	check "$m: the stalled read fails (sg_raw rc=$rc)" test "${rc:-0}" -ne 0
	check "$m: while outstanding, the probe reaches its buffer" stall_probe_before
	check "$m: from its completion on, no probe gets in (none succeeds; the last one gets no answer: the QP is in the error state, fenced before the completion)" \
		stall_probe_after "$1"
	lab_note "$m: $(grep -E '^(STALL |STALLING|TSK_MGMT|TRIGGER_DONE|CM )' $FAKE_LOG | tr '\n' ' ')"
	lab_note "$m: $(grep -c '^PROBE_POST' $FAKE_LOG) probes posted; around the completion: $(grep -E '^(PROBE|TRIGGER_DONE)' $FAKE_LOG | grep -B3 -A3 '^TRIGGER_DONE' | tr '\n' ' ')"
	check "$m: no SCSI host or rport left" lab_wait 90 hostile_no_hosts
}
m="stall, rport delete"
HOSTILE_EXTRA=keepalive=0
if hostile_login stall -P 2 -R; then
	( hostile_trigger_in 10; echo "TRIGGER_DONE rc=$?" >> $FAKE_LOG ) &
	trig=$!
	check "$m: the target stalls our sends (no receive posted)" \
		hostile_fake_saw "^STALL conn=" 30
	echo delete > /sys/class/srp_remote_ports/port-$HOSTILE_HOST:1/delete
	lab_wait 120 hostile_fake_saw "^TRIGGER_DONE" 1
	wait $trig
	stall_judge "host reset failed"
else
	fail "$m: login"
fi
hostile_fake_stop
HOSTILE_HOST=
HOSTILE_DEV=

# An rport lost with fast_io_fail_tmo off (issue 32, low). dev_loss_tmo
# marks the rport lost without failing its I/O (fast_io_fail_tmo does
# that), and ABORT TASK then answers FAST_IO_FAIL, after which the command
# is the midlayer's (6.1 and 6.12 escalate to a host reset first, which
# fails on a lost rport). The target stalls our sends as above,
# keep-alive off, with the read outstanding; a LOGICAL UNIT RESET through
# the LUN's sg node (sg_reset -N: no escalation to a host reset, which
# would reconnect) stalls behind it, the channel is marked down after 5 s
# with its QP still up and the rport blocked; reconnect_delay and
# fast_io_fail_tmo are off, dev_loss_tmo 5 s marks it lost, and the
# removal that follows waits for the SCSI devices, so for the read, which
# times out 40 s after it was sent and is aborted on the lost rport. The
# target probes its buffer every 2 ms (-R). The driver before
# srp_eh_abort_lost() handed the read back still holding its MR and
# mapping (the removal then destroyed the QP under it: a WARNING, boot
# 20261207-162932), with no fence of its own.
m="stall, rport lost, fast_io_fail_tmo off"
if hostile_login stall -P 2 -R; then
	rp=/sys/class/srp_remote_ports/port-$HOSTILE_HOST:1
	echo off > $rp/fast_io_fail_tmo
	echo off > $rp/reconnect_delay
	echo 5 > $rp/dev_loss_tmo
	lab_note "$m: reconnect_delay $(cat $rp/reconnect_delay), fast_io_fail_tmo $(cat $rp/fast_io_fail_tmo), dev_loss_tmo $(cat $rp/dev_loss_tmo)"
	( hostile_trigger_in 40; echo "TRIGGER_DONE rc=$?" >> $FAKE_LOG ) &
	trig=$!
	check "$m: the target stalls our sends (no receive posted)" \
		hostile_fake_saw "^STALL conn=" 30
	sg=$(ls /sys/block/$HOSTILE_DEV/device/scsi_generic/ 2>/dev/null | head -1)
	timeout 60 sg_reset -N -d /dev/$sg > /tmp/sg_reset.out 2>&1 &
	rst=$!
	check "$m: the rport is lost before the read times out" \
		lab_wait 35 lab_log_has "dev_loss_tmo expired for SRP port-$HOSTILE_HOST:1"
	lab_wait 120 hostile_fake_saw "^TRIGGER_DONE" 1
	wait $trig $rst
	stall_judge "abort on a lost rport"
else
	fail "$m: login"
fi
hostile_fake_stop
HOSTILE_HOST=
HOSTILE_DEV=
HOSTILE_EXTRA=

check "no SRP hosts at the end" hostile_no_hosts
check "ib_srp unloads" lab_unload ib_srp
