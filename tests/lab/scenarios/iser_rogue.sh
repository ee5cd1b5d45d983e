# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER against a target that lies (tests/rogue-iser/): the rogue target
# answers the login and serves an 8 MiB LUN correctly, and lies only in its
# answer to one vendor-specific command (sg_raw CDB c0) or in the login.
# For each lie: the kernel log says what was wrong, the command completes
# or fails with a SCSI result, the session recovers or ends, and the LUN
# is usable afterwards; no rkey of a completed command stays valid (the
# stale-rkey probe). LAB_ENV=ROGUE_ONLY=MODE:MODE runs only those modes.
# Needs rogue-iser (tests/rogue-iser/) in /lab/tools/.
#
# Expectations per mode: tests/rogue-iser/README.md.
# lab-drivers: ours
# lab-provokes: iscsi-conn iser-fail sq-stall wc-error qp-error scsi-eh (the rogue target lies)
# lab-boot: rogue
# lab-timeout: 1200
. /lab/lib-rogue-iser.sh

# rogue_want MODE: MODE is to run (ROGUE_ONLY unset, or names it).
rogue_want() { [ -z "${ROGUE_ONLY:-}" ] || [[ ":$ROGUE_ONLY:" == *":$1:"* ]]; }

# rogue_login and rogue_logout set variables (ROGUE_DEV, LAB_TARGET_PID): not
# in check's subshell.
rogue_login_check() {
	if rogue_login; then pass "$1"; else fail "$1" "no session or no disk"; fi
}
rogue_logout_check() {
	local out
	if out=$(rogue_logout 2>&1); then pass "$1"; else fail "$1" "$out"; fi
	lab_target_stop
}

# rogue_stall_end MODE TRIG_PID RC_TEST: the end of a mode that stalls the
# target's receive queue (datain-status, *-stall): wait for the trigger
# (sg_raw, TRIG_PID), ask for the stale-rkey probe at once, check sg_raw's
# status with RC_TEST ("-eq 0": the command succeeds, "-ne 0": it was
# ended), that it returned only after the target reposted its receives
# (UNSTALL), that the probe failed and that the LUN is usable.
rogue_stall_end() {
	local m=$1 trig=$2 rc_test=$3 what=succeeds rc
	[ "$rc_test" = "-eq 0" ] || what="is ended"
	wait "$trig"
	rc=$?
	kill -USR1 $LAB_TARGET_PID
	check "$m: the command $what (sg_raw rc=$rc)" test $rc $rc_test
	check "$m: it completed after the target resumed" \
		lab_target_saw "^UNSTALL conn=1" 0
	check "$m: the stale-rkey probe failed" lab_target_probe_failed 20
	check "$m: LUN usable" rogue_usable
}

# rogue_probe_invalid_nth N: as lab_target_probe_invalid, for the target's
# Nth stale-rkey probe (within 20 s): "remote access error", nothing else.
rogue_probe_invalid_nth() {
	local line
	lab_wait 20 eval "[ \$(lab_target_count '^PROBE ') -ge $1 ]" ||
		{ echo "no probe $1"; return 1; }
	line=$(grep '^PROBE ' "$LAB_TARGET_LOG" | sed -n "$1p")
	echo "$line"
	case "$line" in
	*" status=remote access error") return 0 ;;
	esac
	return 1
}

lab_net_up
lab_iscsid_up
check "rogue-iser is in the payload" rogue_have || return 0
check "ib_iser loads" lab_iser_load

# A correct target: login, LUN scan, reads, the trigger succeeds, fio
# verify on the LUN, logout.
if rogue_want ok; then
	rogue_start ok
	rogue_login_check "ok: login and disk"
	check "ok: the initiator offered Send with Invalidate" \
		lab_target_saw "^CONNECT conn=1 .*send_inv=offered"
	check "ok: 1 MiB read matches the pattern" rogue_read_ok 64K 16
	check "ok: the trigger succeeds" rogue_trigger
	check "ok: fio verify randrw QD32" lab_fio_verify "$ROGUE_DEV" \
		--size=8m --iodepth=32 --bsrange=4k-128k
	rogue_logout_check "ok: logout"
fi

# Finding 3: a final Data-In PDU carrying the status, and no SCSI Response.
# The rogue target first lets its receive queue run empty (a loop of TEST
# UNIT READYs uses it up), so that the SEND the initiator posts next waits
# for receiver-not-ready retries, and so does the completion of anything
# posted behind it - a signaled LOCAL_INV too. Then it sends the Data-In.
# The command must not complete before its LOCAL_INV has, so not before
# the target reposts its receives (UNSTALL). Once sg_raw has returned,
# the probe RDMA WRITEs to the trigger's read buffer and must fail. Both
# seen red with the ib_iser before b0faa88 (boot 08:53): sg_raw returned
# before UNSTALL and "PROBE ... status=success".
# Issue 32 (low): the target sends an Async Message (StatSN N + 1) right
# behind the Data-In with status (N). The initiator delivers the Async
# Message at once and the Data-In once its LOCAL_INV has completed, so out
# of order, and libiscsi takes each PDU's StatSN + 1 as its ExpStatSN: it
# went back to N + 1. Once resumed, the target holds the answer to the
# first command, asks for a NOP-Out, and that must acknowledge N + 2.
if rogue_want datain-status; then
	m=datain-status
	rogue_start $m -s 2
	if rogue_login; then
		lab_log_mark
		rogue_trigger 30 &
		trig=$!
		check "$m: the trigger reached the target" lab_target_saw "^STALL conn=1"
		(for i in $(seq 100); do lab_tur $ROGUE_DEV || break; done) \
			>/dev/null 2>&1 &
		turs=$!
		check "$m: Data-In with status sent with the receive queue empty" \
			lab_target_saw "^DATAIN_STATUS conn=1" 30
		# before the probe, whose failure ends the connection
		check "$m: ExpStatSN did not go back when the held Data-In was delivered after the Async Message behind it" \
			lab_target_saw "^EXPSTATSN conn=1 .* ok$" 20
		rogue_stall_end $m $trig "-eq 0"
		wait $turs
	else
		fail "$m: login"
	fi
	rogue_logout_check "$m: logout"
fi

# Issue 32, high 1: two PDUs that complete the same command. As in
# datain-status the target lets its receive queue run empty, so the
# initiator's next SEND waits for receiver-not-ready retries and the
# LOCAL_INV the Data-In with status waits for is queued behind it; then
# it sends, right behind that Data-In, a SCSI Response for the same
# command, without Send with Invalidate. The command must not complete
# while its rkey is valid: with ib_iser before the fix the response was
# delivered at once (the Data-In's LOCAL_INV posted counted as done) and
# the command's pages went back while the LOCAL_INV still waited. Now the
# second answer fails the connection, and the command completes after
# the QP is drained, on the session's next connection. Once sg_raw has
# returned, the probe RDMA WRITEs to the trigger's read buffer, over its
# own connection if that is still up, else over the session's next one
# (each connection has a protection domain of its own since f05a56e, so
# the next one could not take the old connection's keys anyway; before,
# the device's one domain took them until the MRs were deregistered), and
# must find the rkey invalid: "remote access error", nothing else.
if rogue_want dup-status; then
	m=dup-status
	rogue_start $m -s 2
	if rogue_login; then
		lab_log_mark
		rogue_trigger 30 &
		trig=$!
		check "$m: the trigger reached the target" lab_target_saw "^STALL conn=1"
		(for i in $(seq 100); do lab_tur $ROGUE_DEV || break; done) \
			>/dev/null 2>&1 &
		turs=$!
		check "$m: Data-In with status, then a SCSI Response, sent with the receive queue empty" \
			lab_target_saw "^DUP_STATUS conn=1" 30
		wait $trig
		rc=$?
		# read at once: UNSTALL follows 2 s after the answers
		after=$(grep -Em1 "^(UNSTALL conn=1|TRIGGER conn=2 )" $ROGUE_LOG)
		# A command that failed (SG_IO is not retried) failed with its
		# connection: the probe needs the next one to go over. What it
		# does not see: the old connection's MRs stay registered in
		# the device's PD from the drain until its release work.
		[ $rc -eq 0 ] || lab_target_saw "^LOGGED_IN conn=2" 60 >/dev/null
		kill -USR2 $LAB_TARGET_PID
		check "$m: the command completed only after the target resumed, or on the next connection, or failed (sg_raw rc=$rc)" \
			eval "[ -n '$after' ] || [ $rc -ne 0 ]"
		check "$m: the stale-rkey probe finds the rkey invalid" \
			lab_target_probe_invalid 20
		check "$m: kernel log says so" \
			lab_log_has "$IP0:$ROGUE_PORT: PDU opcode 0x21 completes itt 0x[0-9a-f]+ a second time"
		check "$m: the session logged in again" lab_target_saw "^LOGGED_IN conn=2" 60
		wait $turs
		check "$m: LUN usable" rogue_usable
	else
		fail "$m: login"
	fi
	rogue_logout_check "$m: logout"
fi

# Issue 32, the gap dup-status left: an rkey is checked against the
# protection domain of the QP a request arrives on, not of the QP it was
# handed out on. With one PD per device, an MR of one connection took
# requests from every other QP of the host on that device: the session's
# next connection, another session's, and so, after a drain had completed
# the connection's commands without executing their LOCAL_INVs, until its
# release work deregistered the MRs. Now each connection has a PD of its
# own. Two sessions to the rogue target on the same device; the target
# holds the trigger of the first (its rkey valid and the connection up)
# and RDMA WRITEs to it over the second's connection: "remote access
# error", nothing else. Red with one PD per device (boot 20261206-031439:
# the probe wrote, status=success). The trigger then times out (10 s)
# and its ABORT TASK, answered "function complete", ends it. A logout
# with the trigger held is no drain: sd's removal waits for the command
# (a hung task in boot 20261206-031439), so the drain case has no probe
# here; with a PD per connection it needs none (docs/threat-model.md).
if rogue_want xconn; then
	m=xconn
	rogue_b() { iscsiadm -m node -T $ROGUE_IQN-b -p $IP0:$ROGUE_PORT -I iser "$@"; }
	rogue_start $m
	if rogue_login && rogue_b -o new >/dev/null &&
	   timeout 120 iscsiadm -m node -T $ROGUE_IQN-b -p $IP0:$ROGUE_PORT -I iser \
		--login >/dev/null; then
		pass "$m: two sessions on one device"
		lab_log_mark
		rogue_trigger 10 &
		trig=$!
		check "$m: the trigger is held on the first session's connection" \
			lab_target_saw "^HELD conn=1 " 30
		kill -USR2 $LAB_TARGET_PID
		check "$m: its rkey, probed over the other session's connection, is invalid there" \
			rogue_probe_invalid_nth 1
		wait $trig
		rc=$?
		check "$m: the ABORT TASK ended the held command (sg_raw rc=$rc)" \
			test $rc -ne 0
	else
		fail "$m: two sessions on one device"
	fi
	timeout 120 iscsiadm -m node -T $ROGUE_IQN-b -p $IP0:$ROGUE_PORT -I iser \
		--logout >/dev/null 2>&1
	rogue_b -o delete >/dev/null 2>&1
	rogue_logout_check "$m: logout"
fi

# Issue 40: a send queue that stops must fail its connection within 5 s
# of its last completion, whatever the target still sends: not when
# libiscsi's NOP-Out ping times out (the target's NOP-Ins hold it off, and
# the ping would wait in the same queue) or when the SCSI command times
# out. The datain-status lie with a 30 s stall stops it: the target's
# receive queue runs empty under TEST UNIT READYs, and the initiator's
# next SEND waits for receiver-not-ready retries, with the LOCAL_INV of
# the trigger's rkey behind it. The rogue target writes "DRY" into the
# kernel log when the receive that emptied its queue completes (the
# initiator's last SEND to complete, acknowledged then), so the time to
# the watchdog's line is read on one clock, the kernel log's. Red with
# the watchdog as first written (no completion for 5 s, looked at once
# a second: 5 to 6 s after the last completion). The other stall modes
# stall for 2 s: a target may be that slow to repost its receives.
# rogue_dry_to_failure_ms: milliseconds between the rogue target's first
# DRY line and the first send queue watchdog line, both in the kernel log
# since the mark; nothing if either is missing.
rogue_dry_to_failure_ms() {
	lab_log_since | awk '
		function ts(l) { sub(/^\[ */, "", l); sub(/\].*/, "", l); return l + 0 }
		/rogue-iser: DRY conn=1 / && !d { d = ts($0) }
		/send queue completed none of its/ && !f { f = ts($0) }
		END { if (d && f) printf "%d\n", (f - d) * 1000 }'
}

if rogue_want sq-stall; then
	m=sq-stall
	rogue_start datain-status -s 30
	if rogue_login; then
		lab_log_mark
		rogue_trigger 60 &
		trig=$!
		check "$m: the trigger reached the target" lab_target_saw "^STALL conn=1"
		(for i in $(seq 100); do lab_tur $ROGUE_DEV || break; done) \
			>/dev/null 2>&1 &
		turs=$!
		check "$m: the receive queue is empty, the initiator's send waits" \
			lab_target_saw "^DATAIN_STATUS conn=1" 30
		lab_wait 20 lab_log_has "send queue completed none of its .* work requests"
		ms=$(rogue_dry_to_failure_ms)
		check "$m: the connection failed ${ms:-?} ms after the target's receive queue ran empty (<= 5000)" \
			test "${ms:-999999}" -le 5000
		check "$m: ... before the target resumed" \
			eval "! grep -q '^UNSTALL conn=1' $ROGUE_LOG"
		check "$m: the session logged in again" \
			lab_target_saw "^LOGGED_IN conn=2" 60
		wait $trig
		wait $turs
		check "$m: LUN usable" rogue_usable
	else
		fail "$m: login"
	fi
	rogue_logout_check "$m: logout"
fi

# The abort path: an ABORT TASK the target answers "function complete"
# ends the trigger, and libiscsi fails it back to the midlayer as soon as
# it sees that response. The rogue target holds the trigger (a 4 KiB read)
# unanswered; when the ABORT TASK of the SCSI timeout comes, it uses up
# its receive queue with NOP-Ins the initiator must answer, so that one
# answer more waits in the initiator's send queue for receiver-not-ready
# retries, and so does anything posted behind it - the LOCAL_INV of the
# trigger's rkey too. Then it answers the abort. The abort must not
# complete before that LOCAL_INV has, so not before the target reposts
# its receives (UNSTALL); once sg_raw has returned, the probe RDMA WRITEs
# to the trigger's read buffer and must fail.
if rogue_want abort-stall; then
	m=abort-stall
	rogue_start $m -s 2
	if rogue_login; then
		rogue_trigger 5 &
		trig=$!
		check "$m: the trigger is held" lab_target_saw "^HELD conn=1"
		check "$m: its ABORT TASK came, the receive queue drains" \
			lab_target_saw "^STALL conn=1" 60
		check "$m: answered with the receive queue empty" \
			lab_target_saw "^TMF_RSP conn=1" 30
		rogue_stall_end $m $trig "-ne 0"
	else
		fail "$m: login"
	fi
	rogue_logout_check "$m: logout"
fi

# The same for the resets that end every command of the LUN or of the
# target: libiscsi fails them all once it sees "function complete". The
# trigger is held with a SCSI timeout long enough that no abort comes
# first; sg_reset (without escalation) sends the LOGICAL UNIT RESET
# (-d) or TARGET WARM RESET (-t), which the target answers as in
# abort-stall. The reset, and with it the trigger, must not complete
# before the LOCAL_INV of the trigger's rkey has. Seen failing with the
# in-tree ib_iser (sg_raw returned before UNSTALL, "PROBE ...
# status=success": boot 20261203-145438).
#
# When sg_raw returns is no measure of when the kernel ended the trigger
# here: ours without the rule (31ab4fa) ended it 5 s before UNSTALL, yet
# sg_raw returned after it (boot 20261203-142328), and so did the probe
# asked for then. Nothing on the kernel's reset path waits for the send
# queue; a process leaves only after close() of /dev/sdX, which takes the
# disk's open_mutex, and the likely holder is udev: sg_reset's close of
# /dev/sdX, opened for writing, makes it re-read the partition table
# (BLKRRPART), under that mutex, with a read that waits behind the stalled
# send queue (not yet confirmed by a stack dump). So sg_reset goes through
# the LUN's sg node, which udev does not watch, and the kernel's own count
# says when the trigger ended, whatever user space does: the SCSI midlayer
# counts a failed command in the device's ioerr_cnt as it completes it.
# If that count moves before UNSTALL, the probe is asked for at once: the
# command has completed, its rkey must already be unreachable (invalid, or
# the QP in error). udev is let settle first, so that nothing else of the
# LUN is in flight or fails meanwhile.

# rogue_ioerr: the rogue LUN's ioerr_cnt.
rogue_ioerr() { cat /sys/block/$ROGUE_DEV/device/ioerr_cnt; }

# rogue_sg: the sg node of the rogue LUN.
rogue_sg() { ls /sys/block/$ROGUE_DEV/device/scsi_generic/ 2>/dev/null | head -1; }

# rogue_reset_ended MODE BASE: wait until the kernel ended the trigger
# (ioerr_cnt is no longer BASE) or the target resumed. Ended before the
# target resumed: ask for the probe at once, and it must fail. ioerr_cnt
# is read before the target's log, so a count that moved before UNSTALL
# was logged is never taken for one that moved after.
rogue_reset_ended() {
	local m=$1 base=$2 end=$((SECONDS + 30 * ${LAB_SLOWDOWN:-1})) now
	while :; do
		now=$(rogue_ioerr)
		if grep -q "^UNSTALL conn=1" $ROGUE_LOG; then
			pass "$m: the kernel ended the trigger only after the target resumed"
			return 0
		fi
		if [ "$now" != "$base" ]; then
			kill -USR1 $LAB_TARGET_PID
			check "$m: ended in the kernel with the target stalled (ioerr_cnt $base -> $now): the probe fails" \
				lab_target_probe_failed 20
			return 0
		fi
		if [ $SECONDS -ge $end ]; then
			fail "$m: neither the trigger ended nor the target resumed" \
				"ioerr_cnt $now"
			return 1
		fi
		sleep 0.2
	done
}

# Issue 32 (low): a Task Management Response with the task tag of a
# function that is over. The initiator looked the tag up and took the
# request its task still held, the finished LOGICAL UNIT RESET, as the
# function answered: it invalidated the rkeys of the running commands
# that reset covered, and marked them ended, before libiscsi refused the
# response (the task is free); had the task been handed to a new
# function meanwhile, the response would have ended that one's commands,
# their rkeys valid. Now a response must name a function outstanding on
# the connection (running, no SCSI command, this connection), or the
# connection fails at once, saying so. After lun-reset-stall, the rogue
# target answers the next trigger with "function complete" under the
# reset's tag, and never answers the trigger. Red with ib_iser before the
# check: the line is missing (libiscsi's "unknown task tag" came after
# the invalidations).
rogue_tmf_stale() {
	local m="$1, stale tag" rc
	lab_log_mark
	rogue_trigger 10
	rc=$?
	# the probe of lun-reset-stall ended connection 1: this is the 2nd
	check "$m: the target answered a trigger with the finished reset's tag" \
		lab_target_saw "^LIE tmf-stale conn=2 "
	check "$m: kernel log says so" \
		lab_log_has "$IP0:$ROGUE_PORT: task management response \(itt 0x[0-9a-f]+\) names no task management function outstanding"
	check "$m: the session logged in again" lab_target_saw "^LOGGED_IN conn=3" 60
	check "$m: the trigger succeeded on the new connection, or failed (sg_raw rc=$rc)" \
		eval "[ $rc -ne 0 ] || lab_target_saw '^TRIGGER conn=3 '"
	check "$m: LUN usable" rogue_usable
}

# rogue_reset_stall MODE SG_RESET_OPT FUNC NAME
rogue_reset_stall() {
	local m=$1 opt=$2 func=$3 name=$4 trig rst rc sg base
	rogue_want $m || return 0
	rogue_start $m -s 2
	if rogue_login; then
		check "$m: udev settled" udevadm settle -t 60
		sg=$(rogue_sg)
		check "$m: the LUN has an sg node" test -n "$sg"
		base=$(rogue_ioerr)
		rogue_trigger 120 &
		trig=$!
		check "$m: the trigger is held" lab_target_saw "^HELD conn=1"
		timeout 120 sg_reset -N $opt /dev/$sg >/tmp/sg_reset.out 2>&1 &
		rst=$!
		check "$m: its $name came, the receive queue drains" \
			eval "lab_target_saw '^TMF conn=1 func=$func ' 60 &&
			      lab_target_saw '^STALL conn=1'"
		check "$m: answered with the receive queue empty" \
			lab_target_saw "^TMF_RSP conn=1" 30
		rogue_reset_ended $m "$base"
		rogue_stall_end $m $trig "-ne 0"
		wait $rst
		rc=$?
		check "$m: sg_reset $opt reports done (rc=$rc)" \
			eval "[ $rc -eq 0 ] || ! cat /tmp/sg_reset.out"
		[ $m = lun-reset-stall ] && rogue_tmf_stale $m
	else
		fail "$m: login"
	fi
	rogue_logout_check "$m: logout"
}
rogue_reset_stall lun-reset-stall -d 5 "LOGICAL UNIT RESET"
rogue_reset_stall target-reset-stall -t 6 "TARGET WARM RESET"

# rogue_case MODE DMESG_REGEX [ROGUE OPTIONS...]: log in to the rogue
# target in MODE, send the trigger, and check that the kernel log line
# matching DMESG_REGEX (after "ADDR:PORT: ") appears, that the connection
# failed and the session logged in again, that the trigger did not
# succeed on the connection that lied (it either fails or is retried on
# the new one), that the LUN is usable and that logout leaves nothing.
# A connection that failed believes nothing more from the target: in
# async-bad and nopin-data the trigger's correct SCSI Response follows
# the lie, and ib_iser completed the trigger with it on the failed
# connection until it dropped what comes after the failure (boot
# 20261203-082033: "TRIGGER conn=2" missing, sg_raw rc=0).
rogue_case() {
	local m=$1 why=$2 rc sid
	shift 2
	rogue_want $m || return 0
	rogue_start $m "$@"
	if ! rogue_login; then
		fail "$m: login"
		rogue_logout
		return
	fi
	lab_log_mark
	sid=$(rogue_session)
	[ $m = bad-opcode ] && rogue_stats_loop_start "${sid#session}"
	rogue_trigger 10
	rc=$?
	check "$m: rogue target told the lie" lab_target_saw "^LIE $m conn=1"
	check "$m: kernel log says so" lab_log_has "$IP0:$ROGUE_PORT: $why"
	check "$m: the session logged in again" lab_target_saw "^LOGGED_IN conn=2" 60
	[ $m = bad-opcode ] && rogue_stats_loop_check "$m"
	if [ $rc -eq 0 ]; then
		check "$m: the command succeeded only on the new connection" \
			lab_target_saw "^TRIGGER conn=2 "
	else
		pass "$m: the command failed (sg_raw rc=$rc)"
	fi
	check "$m: LUN usable" rogue_usable
	rogue_logout_check "$m: logout"
}

# Issue 32 item 4: statistics read while the connection fails. iscsiadm
# -m session -s asks ib_iser's get_stats over netlink, which nothing
# orders against scsi_transport_iscsi's cleanup work unbinding (and
# releasing) the failed connection; the read looped from just before the
# lie until the session is back must leave the kernel clean (the boot's
# log check; KASAN in the debug lab) and answer throughout.
rogue_stats_loop_start() {
	rm -f /tmp/rogue-stats.stop /tmp/rogue-stats.n
	(
		n=0 ok=0
		while [ ! -e /tmp/rogue-stats.stop ]; do
			iscsiadm -m session -r "$1" -s >/dev/null 2>&1 && ok=$((ok + 1))
			n=$((n + 1))
		done
		echo "$n $ok" > /tmp/rogue-stats.n
	) &
	ROGUE_STATS_LOOP=$!
}

# rogue_stats_loop_check MODE: stop the loop; it read the statistics
# before and after the failure.
rogue_stats_loop_check() {
	local n ok
	touch /tmp/rogue-stats.stop
	wait "$ROGUE_STATS_LOOP"
	read -r n ok < /tmp/rogue-stats.n
	check "$1: statistics read $ok times of $n while the connection failed and came back (smoke)" \
		test "${ok:-0}" -ge 2
}

# Finding 7: Send with Invalidate the initiator did not offer...
if rogue_want inv-unoffered; then
	check "inv-unoffered: ib_iser reloads with remote_invalidate=0" \
		eval "iser_unload && lab_iser_load remote_invalidate=0"
	rogue_case inv-unoffered "target used Send with Invalidate .*which was not negotiated"
	check "inv-unoffered: the initiator did not offer it" \
		grep -q "^CONNECT conn=1 .*send_inv=not offered" $ROGUE_LOG
	check "inv-unoffered: ib_iser reloads with defaults" \
		eval "iser_unload && lab_iser_load"
fi

# ... and of an rkey that is not the task's: the first trigger is held, the
# second one answered with Send with Invalidate of the first one's rkey.
if rogue_want inv-other; then
	m=inv-other
	rogue_start $m
	if rogue_login; then
		lab_log_mark
		rogue_trigger 10 &
		trig=$!
		check "$m: the first trigger is held" lab_target_saw "^HELD conn=1"
		rogue_trigger 10
		rc2=$?
		wait $trig
		rc1=$?
		check "$m: rogue target told the lie" lab_target_saw "^LIE $m conn=1 .*"
		check "$m: kernel log says so" \
			lab_log_has "$IP0:$ROGUE_PORT: target invalidated rkey 0x[0-9a-f]+, not"
		check "$m: the session logged in again" lab_target_saw "^LOGGED_IN conn=2" 60
		check "$m: no trigger succeeded on the connection that lied (rc $rc1 $rc2)" \
			eval "[ $rc1 -ne 0 -a $rc2 -ne 0 ] || lab_target_saw '^TRIGGER conn=2 '"
		check "$m: LUN usable" rogue_usable
	else
		fail "$m: login"
	fi
	rogue_logout_check "$m: logout"
fi

rogue_case dsl-over "malformed PDU"
rogue_case ahs-overrun "malformed PDU"
rogue_case async-bad "malformed PDU"
rogue_case bad-opcode ".*opcode 0x3b"
rogue_case nopin-data ".*opcode 0x20"

# A login response longer than the login receive buffer (8 KiB): the
# login fails, saying so, and leaves no session. The receive completes
# with an error whose name depends on the device: local length error on
# hardware, local QP operation error on soft-RoCE (6.1's copy_data()
# refuses a SEND longer than the posted buffer with -EINVAL, the responder
# reports a malformed WQE). The line names the login buffer, which is what
# tells this failure from others (before, "receive failed: local QP
# operation error": boot 20261203-082033).
if rogue_want login-huge; then
	m=login-huge
	rogue_start $m
	lab_log_mark
	if rogue_login; then fail "$m: login fails"; else pass "$m: login fails"; fi
	check "$m: rogue target told the lie" lab_target_saw "^LIE $m conn=1"
	check "$m: kernel log says so" \
		lab_log_has "$IP0:$ROGUE_PORT: receive into the 8192-byte login buffer failed: local (length|QP operation) error"
	rogue_logout_check "$m: logout"
	check "$m: no session left" iser_no_session
fi

# An unsolicited NOP-In right behind the final login response (issue 40):
# tgt's iSER sends one to every full-feature connection each 5 s, and one
# sent before the initiator posted its full-feature receives found none:
# over soft-iWARP, which has no receiver-not-ready retry, the SendTargets
# discovery of iser_tgt failed with "siw: got TERMINATE. layer 1, type 2,
# code 2" (DDP, untagged buffer, no buffer: boot 20261206-175810). Here
# soft-RoCE answers such a SEND with an RNR NAK and retries it, so the
# NOP-In completes either way; rxe0 counts the NAK (send_rnr_err: the
# initiator's end is on rxe0 too, and nothing else runs meanwhile).
if rogue_want login-nopin; then
	m=login-nopin
	rnr=/sys/class/infiniband/$RXE0/ports/1/hw_counters/send_rnr_err
	rogue_start $m
	lab_log_mark
	rnr0=$(cat $rnr)
	rogue_login_check "$m: login and disk"
	check "$m: the target sent a NOP-In right behind the final login response" \
		lab_target_saw "^LIE $m conn=1"
	rnr1=$(cat $rnr)
	check "$m: it found a receive posted ($RXE0 send_rnr_err $rnr0 -> $rnr1)" \
		test "$rnr1" -eq "$rnr0"
	check "$m: LUN usable" rogue_usable
	check "$m: one connection" eval "! grep -q '^CONNECT conn=2' $ROGUE_LOG"
	check "$m: no connection error" lab_log_lacks_context 'detected conn error'
	rogue_logout_check "$m: logout"
fi

# Finding 6: MaxRecvDataSegmentLength 512, InitialR2T=No, FirstBurstLength
# 64 KiB: a 256 KiB write is 512 bytes of immediate data and 127 Data-Out
# PDUs, 4096 of them at QD 32. The target checks DataSN and buffer offset
# of every Data-Out; fio verifies the data. The target has a receive
# buffer for every PDU its window allows: with 48, its receiver-not-ready
# retries made soft-RoCE run the initiator's fast registrations twice
# ("rxe_reg_fast_mr: ... not free", docs/lab.md), the QP broke, NOP-Out
# pings timed out and fio failed, with ib_iser before b0faa88 and after it
# alike (boot 20261203-082033). What this does not show: the send queue's room for
# Data-Out is never reached here (they complete about as fast as they are
# posted unless the target stops taking them, and stopping it is that
# rxe failure again), so a task never resumes a burst, and ib_iser with
# finding 6's fix reverted passes too (boot 20261203-105025). So these are
# smoke checks of 512-byte Data-Outs at QD 32 (issue 33, item 8), named
# so: finding 6's room is shown by test_iser_unsol alone.
if rogue_want small-mrdsl; then
	m=small-mrdsl
	n="$m (smoke)"
	rogue_start $m
	if rogue_login; then
		check "$n: negotiated as asked" \
			lab_target_saw "^LOGGED_IN conn=1 mrdsl=512 initial_r2t=0 immediate=1 first_burst=65536"
		# 512 Data-Out PDUs of 512 bytes per 256 KiB write, 32 writes
		# queued, each PDU through the user-space target: slow on
		# purpose; its bound (LAB_IO_BOUND, lib.sh), 30 s.
		LAB_IO_BOUND=30 check "$n: fio 256 KiB writes QD32, verify" lab_fio_verify "$ROGUE_DEV" \
			--rw=write --bs=256k --iodepth=32 --size=8m --loops=4
		check "$n: Data-Out DataSN and offsets continuous" \
			eval "! grep -E '^(DATAOUT_|ERROR)' $ROGUE_LOG"
		check "$n: one connection" eval "! grep -q '^CONNECT conn=2' $ROGUE_LOG"
	else
		fail "$n: login"
	fi
	rogue_logout_check "$n: logout"
fi

# Issue 16: a target that stalls the initiator's send queue must not be
# able to overflow it. The rogue target lets its receive queue run empty
# under a load of 4 KiB writes (QD 32, all immediate data, nothing
# registered), so the initiator's next SEND waits for receiver-not-ready
# retries, and so does everything posted behind it. It keeps reading what
# the target sends: the target answers GOOD, 32 at a time, the commands
# it cannot see, by the task tags libiscsi hands out next (its pool is
# first in, first out; the target learnt its order from the commands it
# saw). Each answer frees a task whose SEND still waits, and the next
# write takes a task and posts one more SEND behind it. With the ib_iser
# before this mode, the send queue filled up ("posting a command failed:
# -12") and the report of that failure, made under libiscsi's forward
# lock, took that lock again: the guest locked up (RCU stall, fio
# spinning in iscsi_conn_failure() from iser_xmit_task(); boot
# 20261203-232442). Now a task whose work requests have not completed is
# not handed out again, the queue never holds more than its room, and
# the connection fails, and recovers. It fails on whichever comes first:
# the target's answer to a task the initiator has not sent (libiscsi:
# unknown task tag), or the send queue watchdog (issue 40: nothing
# completed for 4 s). Which one depends on the target's pace alone: with
# rounds 400 ms apart the answer came 1.8-1.9 s after the receive queue
# ran dry (boots 20261207-040645, -041019 under host load, -042101), with
# 1.5 s apart the watchdog came first, 4.2 s after it (boot
# 20261207-043129, ROGUE_OVF_ROUND_MS=1500), and that is the one failure
# of CI's run of 343ee7d: the session back, no post failed, no answer
# line. Both are right; the check names the one seen.
# The writes the stall holds wait for the connection's failure (either
# way) and the next login, plus the lab's bound for
# the I/O itself (LAB_IO_BOUND, lib.sh): 30 s, as for the other faults
# of the lab (3.5 s seen, boot 20261207-013937).
: "${ROGUE_OVF_IO_BOUND:=30}"
if rogue_want sq-overflow; then
	m=sq-overflow
	rogue_start $m -q 32 -r "${ROGUE_OVF_ROUND_MS:-400}"
	if rogue_login; then
		udevadm settle
		lab_log_mark
		fio --name=ovf --filename=/dev/$ROGUE_DEV --rw=randwrite --bs=4k \
			--iodepth=32 --ioengine=libaio --direct=1 --size=8m \
			--time_based --runtime=600 --output-format=json \
			--output=/tmp/ovf-fio.json >/tmp/ovf-fio.out 2>&1 &
		load=$!
		check "$m: the target foresaw the initiator's tasks, stalled" \
			lab_target_saw "^STALL conn=1" 120
		check "$m: it answers commands it cannot see" \
			lab_target_saw "^OVERFLOW conn=1 receive queue empty" 60
		check "$m: the session logged in again" \
			lab_target_saw "^LOGGED_IN conn=2" 180
		ovf_fail="PDU opcode 0x21 .*unknown task tag|send queue completed none of its [0-9]+ work requests in [0-9]+ ms"
		check "$m: kernel log: the connection failed on the answer to a task never sent, or on its stalled send queue" \
			lab_log_has "$IP0:$ROGUE_PORT: ($ovf_fail)"
		lab_note "$m: $(lab_log_since | grep -m1 -Eo "$ovf_fail")"
		check "$m: no post to the send queue failed" \
			lab_log_lacks "posting (a command|Data-Out|the invalidation)"
		kill $load 2>/dev/null
		wait $load
		# The stall holds the writes behind it until the connection
		# fails and the session is back (ROGUE_OVF_IO_BOUND, above).
		check "$m: longest write within its bound" \
			lab_fio_bound /tmp/ovf-fio.json "fio writes through the stall" ROGUE_OVF_IO_BOUND
		# not rogue_usable: the load overwrote the LBA pattern it reads
		check "$m: the disk answers TEST UNIT READY" \
			eval 'lab_wait 60 _rogue_disk && lab_wait 60 lab_tur $ROGUE_DEV'
		check "$m: fio verify randrw QD32" lab_fio_verify "$ROGUE_DEV" \
			--size=8m --iodepth=32 --bsrange=4k-128k
	else
		fail "$m: login"
	fi
	rogue_logout_check "$m: logout"
fi

# After all that, a correct target again: fio verify passes.
if rogue_want ok; then
	rogue_start ok
	rogue_login_check "ok after the lies: login and disk"
	check "ok after the lies: fio verify randrw QD32" lab_fio_verify "$ROGUE_DEV" \
		--size=8m --iodepth=32 --bsrange=4k-128k
	rogue_logout_check "ok after the lies: logout"
fi

check "no session left" iser_no_session
check "ib_iser unloads" iser_unload
