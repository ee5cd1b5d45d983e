# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP keep-alive (issue 15): a path that goes silent is noticed by the
# driver's own probe, not by the 30 s SCSI command timeout. Both logins use
# the default login string, without tl_retry_count: its default, 7, is
# "retry for ever" to soft-RoCE (lib-path.sh), so nothing but the keep-alive
# (or the SCSI timeout) can notice a cut. rport timers: reconnect_delay 2,
# fast_io_fail_tmo 4, dev_loss_tmo 60. K below is the keep-alive of path
# 0's login (ib_srp.keepalive, 5 s, unless KA_LOGIN_KEEPALIVE sets it).
#
#  1. Idle path (no I/O on path 0's disks, multipathd not up yet): channel
#     0's probes K/2 to K + 1 s apart; every packet of path 0 dropped
#     right after its probe was answered (an idle channel's worst moment):
#     the keep-alive fails it within K + 2 s of the drop, before any
#     command is sent to it; restored, it comes back and serves I/O.
#  2. fio verify on a two-path dm-multipath map, path 0 dropped: the rport
#     leaves running and dm fails the path within K + fast_io_fail_tmo + 2 s
#     of the drop, no I/O takes longer than that + 2 s (fio's maximum
#     latency), no verify error, the keep-alive message is logged;
#     restored, the path comes back (rport running within
#     reconnect_delay + 10 s, dm path active).
#     On 6.12 soft-RoCE fails a busy cut path's QPs itself, within
#     seconds (lab_rxe_fails_cut_qps), so there the first failure of the
#     path (keep-alive or flushed completion) must come within K + 2 s.
#  3. No false positives: fio verify on both maps for KA_SOAK_SECS (no
#     more probes than idle channels send); then a LUN that takes
#     KA_SLOW_MS to answer a read (LIO iblock on dm-delay): no keep-alive
#     failure, probes answered meanwhile, the read completes.
#  4. keepalive=0 in the login string: state "off", no probe; no key: the
#     module parameter, read at login; out-of-range values refused. One
#     idle channel (ch_count=1, keep-alive 8 s) dropped right after its
#     probe was answered, its last completion: noticed within K + 2 s.
#
# Times are taken on the guest clock: the kernel log's time stamps of the
# message lab_path_cut writes once the drop is in place and of the
# keep-alive message, and $EPOCHREALTIME around the drop with the states
# polled every 0.2 s. (A mark written just before the drop counted nft's
# own run too: in boot 20261206-213033 the idle channel still received
# 3.5 s after it, and the keep-alive message came 8.79 s after the mark,
# 5.25 s after the channel's last receive.)
#
#   KA_SOAK_SECS     length of the soak (default 30; 600 in --long)
#   KA_CUT_FIO_SECS  fio's run across the cut of part 2 (default 60; 120
#                    in-tree, whose failover and reinstatement take longer)
#   KA_SLOW_MS       the slow LUN's read delay (default 20000)
#   KA_LOGIN_KEEPALIVE  keepalive=<this> in both login strings (default:
#                    none, the module's); 0 shows the central checks red
#                    (only the SCSI timeout notices the cut), with the
#                    bounds of the module's default K
#
# With DRIVER=intree (tests/run-all --compare) the same steps run without
# the keep-alive checks and note the times: the in-tree driver has no
# keep-alive and waits for the SCSI command timeout. 2026-12-03, two runs:
# the idle cut not noticed in 20 s; under fio dm failed the path 38.7 and
# 39.1 s after the drop (the rport stayed "running"), reinstated it 55 and
# 48 s after the restore, and the longest I/O took 93 and 87 s.
#
# lab-drivers: ours intree
# lab-provokes: srp-path srp-reconnect mpath rxe wc-error scsi-eh (paths cut, idle and under fio)
# lab-boot: pathcut
# lab-timeout: 900
# lab-long: KA_SOAK_SECS=600
. /lab/lib-srp.sh
. /lab/lib-path.sh
. /lab/lib-time.sh

: "${KA_SOAK_SECS:=30}"
: "${KA_CUT_FIO_SECS:=$([ "${DRIVER:-ours}" = intree ] && echo 120 || echo 60)}"
: "${KA_SLOW_MS:=20000}"
: "${KA_LOGIN_KEEPALIVE:=}"
KA_LOGIN_EXTRA=${KA_LOGIN_KEEPALIVE:+keepalive=$KA_LOGIN_KEEPALIVE}
RECONNECT=2 FASTFAIL=4 DEVLOSS=60
KA_PARAM=/sys/module/ib_srp/parameters/keepalive
ours() { [ "$DRIVER" = ours ]; }

ka_msg_re() { echo "scsi host$1: channel [0-9]+: keep-alive probe unanswered for [0-9]+ ms; failing the path"; }

# --- conditions on path 0 (R0: its rport, MAP/MM: its dm map and the
# major:minor of its LUN 0 in that map)
c_rport_down() { ! grep -qx running $R0/state; }
c_rport_up() { grep -qx running $R0/state; }
c_dm_failed() { dmsetup status "$MAP" | grep -q " $MM F "; }
c_dm_active() { dmsetup status "$MAP" | grep -q " $MM A "; }

# --- counters
# ka_probes H: keepalive_probes of host H (its stats attribute).
ka_probes() { awk '$1 == "keepalive_probes" { print $2; n++ } END { exit !n }' /sys/class/scsi_host/host$1/stats; }
# ka_ch_probes H: keepalive_probes of each channel of host H (debugfs).
ka_ch_probes() {
	local f
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	for f in /sys/kernel/debug/ib_srp/host$1/ch*; do
		awk '$1 == "keepalive_probes" { print $2 }' "$f"
	done
}
# ka_probes_past H N: host H's probes exceed N.
ka_probes_past() { [ "$(ka_probes $1)" -gt "$2" ]; }
# ka_wait_probes H N SECS: poll the probe counter of channel 0 of host H
# (debugfs) until it has grown by N from now, for at most SECS s. The
# moment it got there lies between KA_LO, the start of the last poll that
# saw less, and KA_HI, the end of the first that saw it ($EPOCHREALTIME).
ka_wait_probes() {
	local end s n want
	KA_LO=$EPOCHREALTIME KA_HI=
	want=$(($(ka_ch_probes $1 | head -1) + $2))
	end=$(awk -v t="$EPOCHREALTIME" -v s="$3" 'BEGIN { printf "%.6f", t + s }')
	while :; do
		s=$EPOCHREALTIME
		n=$(ka_ch_probes $1 | head -1)
		[ "${n:-0}" -ge $want ] && { KA_HI=$EPOCHREALTIME; return 0; }
		KA_LO=$s
		awk -v t="$EPOCHREALTIME" -v e="$end" 'BEGIN { exit !(t >= e) }' && return 1
		sleep 0.1
	done
}
# ka_host_cmds H: SCSI commands dispatched to host H's LUNs so far.
ka_host_cmds() {
	local f n=0
	for f in /sys/class/scsi_host/host$1/device/target*/*:*:*:*/iorequest_cnt; do
		n=$((n + $(cat "$f")))
	done
	echo $n
}
# ka_rxe_snap [COUNTERS]: "device:counter value" of the path devices'
# soft-RoCE counters (a brace list of names; every counter with "*"); by
# default those that tell retransmissions (completer_retry_err: the
# requester retried, after a NAK or its ACK timeout; rcvd_seq_err: it got
# a NAK; duplicate_request, out_of_seq_request: the responder saw a
# retried or reordered packet) and retry_exceeded_err.
ka_rxe_snap() {
	local devs cs=${1:-"{sent_pkts,completer_retry_err,rcvd_seq_err,duplicate_request,out_of_seq_request,retry_exceeded_err}"}
	devs=$(IFS=,; echo "${PATH_RXEI[*]},${PATH_RXET[*]}")
	eval grep -H . "/sys/class/infiniband/{$devs}/ports/1/hw_counters/$cs" 2>/dev/null |
		sed 's|^/sys/class/infiniband/\([^/]*\)/ports/1/hw_counters/\([^:]*\):|\1:\2 |'
}
# ka_rxe_delta BEFORE AFTER: the counters that changed, "name +n" (sent_pkts
# left out).
ka_rxe_delta() {
	join <(sort <<<"$1") <(sort <<<"$2") |
		awk '$1 !~ /sent_pkts/ && $3 != $2 { printf "%s +%d ", $1, $3 - $2 } END { print "" }'
}
# --- set-up
check "cuttable paths up" lab_path_up
check "SRP target ports on both paths" lab_path_srpt_up 2
check "ib_srp loads" lab_srp_load
if ours; then
	check "ib_srp.keepalive is 5 s by default" test "$(cat $KA_PARAM)" = 5
	check "ib_srp.keepalive is writable (mode 0644)" test "$(stat -c %a $KA_PARAM)" = 644
	ka_def=$(cat $KA_PARAM)
fi
# The default login string: id_ext, ioc_guid, dest; no tl_retry_count.
h0=$(lab_path_srp_login 0 "$KA_LOGIN_EXTRA") &&
	pass "login over path 0 with the default login string $KA_LOGIN_EXTRA" ||
	fail "login over path 0 with the default login string $KA_LOGIN_EXTRA"
h1=$(lab_path_srp_login 1 "$KA_LOGIN_EXTRA") &&
	pass "login over path 1 with the default login string $KA_LOGIN_EXTRA" ||
	fail "login over path 1 with the default login string $KA_LOGIN_EXTRA"
check "path 0 has its LUNs" srp_wait_disks "$h0" 2
check "path 1 has its LUNs" srp_wait_disks "$h1" 2
for h in $h0 $h1; do
	check "host$h: tl_retry_count is the default, 7 (rxe retries for ever)" \
		test "$(cat /sys/class/scsi_host/host$h/tl_retry_count)" = 7
	r=/sys/class/srp_remote_ports/port-$h:1
	echo $DEVLOSS > $r/dev_loss_tmo
	echo $FASTFAIL > $r/fast_io_fail_tmo
	echo $RECONNECT > $r/reconnect_delay
	check "host$h: rport timers $RECONNECT/$FASTFAIL/$DEVLOSS" \
		test "$(cat $r/reconnect_delay)/$(cat $r/fast_io_fail_tmo)/$(cat $r/dev_loss_tmo)" = $RECONNECT/$FASTFAIL/$DEVLOSS
	if ours; then
		want=${KA_LOGIN_KEEPALIVE:-$ka_def}
		check "host$h: keepalive $want (ib_srp.keepalive without the key)" \
			test "$(cat /sys/class/scsi_host/host$h/keepalive)" = "$want"
		check "host$h: keepalive_state on" \
			test "$(cat /sys/class/scsi_host/host$h/keepalive_state)" = on
		check "host$h: keepalive_probes in its stats" ka_probes $h
		check "host$h: keepalive_probes of each channel in debugfs" \
			test "$(ka_ch_probes $h | grep -c '^[0-9]')" = "$(cat /sys/class/scsi_host/host$h/ch_count)"
	fi
done
/lab/tools/rdi-status 2>/dev/null
R0=/sys/class/srp_remote_ports/port-$h0:1
d0=$(lab_host_disks "$h0" | head -1)
K=5
ours && K=$(cat /sys/class/scsi_host/host$h0/keepalive)
# The bounds are those of the module's default K when a login turned the
# keep-alive off (KA_LOGIN_KEEPALIVE=0: the checks go red).
KB=$K
[ "$KB" = 0 ] && KB=$ka_def
IDLE_BOUND=$((KB + 2))
FAIL_BOUND=$((KB + FASTFAIL + 2))
LAT_BOUND=$((FAIL_BOUND + 2))
BACK_BOUND=$((RECONNECT + 10))
lab_note "keep-alive $K s (bounds with $KB s): idle path noticed within $IDLE_BOUND s," \
	"path failed within $FAIL_BOUND s, I/O within $LAT_BOUND s"

# --- 1. an idle path
udevadm settle
gap=
if ours && [ "$K" != 0 ]; then
	# Probes of an idle channel (channel 0, its own debugfs counter: the
	# host's interleaves its channels): one, then two more, their times
	# on the guest clock. Between K/2 (the idle time before a probe) and
	# K + 1 s apart: no storm, no silence. The drop then comes right after
	# the last of them was answered (rxe answers within milliseconds):
	# that channel's last completion, its worst moment to go silent (the
	# host's other channels have their own phases: part 4 has one).
	rx0=$(ka_rxe_snap)
	if ka_wait_probes $h0 1 $((2 * K + 5)); then
		lo1=$KA_LO hi1=$KA_HI
		if ka_wait_probes $h0 2 $((3 * K + 5)); then
			rx1=$(ka_rxe_snap)
			# two intervals: at least (lo3 - hi1) / 2, at most
			# (hi3 - lo1) / 2 apart
			gap=$(awk -v a="$lo1" -v b="$hi1" -v c="$KA_LO" -v d="$KA_HI" \
				'BEGIN { printf "%.2f %.2f", (c - b) / 2, (d - a) / 2 }')
			sleep 0.3	# the probe's answer (not seen before it is reaped)
		else
			gap=never
		fi
	else
		gap=none
	fi
fi
cmds0=$(ka_host_cmds $h0)
lab_log_mark
lab_path_cut 0
LAB_T0=$EPOCHREALTIME
lab_note "path 0 cut, idle (host$h0 has had $cmds0 SCSI commands)"
if ours; then
	lab_watch $((IDLE_BOUND + 20)) c_rport_down
else
	lab_watch 20 c_rport_down
fi
cmds1=$(ka_host_cmds $h0)
kmark=$(lab_ktime "lab: path 0 cut in place")
kmsg=$(lab_ktime "$(ka_msg_re $h0)")
kdelay=$([ -n "$kmsg" ] && lab_sub "$kmsg" "$kmark")
lab_note "idle path 0: rport left running after ${LAB_AT[c_rport_down]} s," \
	"keep-alive message after ${kdelay:-never} s (kernel clock); $(lab_log_since | grep -E "$(ka_msg_re $h0)" | sed 's/^\[[^]]*\] //')"
if ours && [ -n "$gap" ]; then
	# (what was measured before the drop, said now: it took time)
	lab_note "idle host$h0, channel 0: probes ${gap/ / to } s apart (channels: $(ka_ch_probes $h0 | paste -sd' '))," \
		"soft-RoCE retries meanwhile: $(ka_rxe_delta "$rx0" "${rx1:-$rx0}")"
	if [ "$gap" = none ] || [ "$gap" = never ]; then
		fail "idle host$h0, channel 0: sends keep-alive probes" "$gap within $((3 * K + 5)) s"
	else
		# No more often than every K/2, no less than every K + 1 s.
		check "idle host$h0, channel 0: probes between K/2 and K + 1 s apart (${gap/ / to } s)" \
			awk -v lo="${gap% *}" -v hi="${gap#* }" -v k=$K 'BEGIN { exit !(hi >= k / 2 && lo <= k + 1) }'
	fi
fi
if ours; then
	check "idle path 0: keep-alive message within K + 2 = $IDLE_BOUND s of the drop (${kdelay:-never} s)" \
		lab_within "$kdelay" $IDLE_BOUND
	check "idle path 0: rport leaves running within $IDLE_BOUND s of the drop (${LAB_AT[c_rport_down]} s)" \
		lab_within "${LAB_AT[c_rport_down]}" $IDLE_BOUND
	check "idle path 0: noticed before any command was sent to it ($cmds0 -> $cmds1)" \
		test "$cmds1" = "$cmds0"
fi
lab_path_restore 0
LAB_T0=$EPOCHREALTIME
lab_watch 90 c_rport_up
lab_note "idle path 0 restored: rport running after ${LAB_AT[c_rport_up]} s"
check "idle path 0 comes back: rport running (${LAB_AT[c_rport_up]} s after the restore)" c_rport_up
check "path 0 serves I/O again (direct read of $d0)" \
	dd if=/dev/$d0 of=/dev/null bs=64k count=16 iflag=direct status=none

# --- 2. fio verify on a two-path map, path 0 dropped
lab_mp_two_paths "$d0"
multipath -ll
check "LUN 0 of path 0 ($d0, $MM) is an active path of map $MAP" c_dm_active
fio --name=cut --filename=/dev/mapper/$MAP --direct=1 --ioengine=libaio \
	--rw=randrw --bs=4k --iodepth=16 --size=32m --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --time_based --runtime=$KA_CUT_FIO_SECS \
	--output-format=json --output=/tmp/ka-cut.json 2>/tmp/ka-cut.err &
fpid=$!
check "fio runs over path 0 ($d0)" lab_disk_moves $d0 30
# The snapshot first: under TCG it can take seconds that are not the drop's
# (boot 20261205-223944: the mark 7.68 s before the keep-alive message,
# whose channels had last received 5.1 and 5.3 s before it).
rxa0=$(ka_rxe_snap "*")
lab_log_mark
lab_path_cut 0
LAB_T0=$EPOCHREALTIME
lab_note "path 0 cut under fio"
if ours; then
	lab_watch 90 c_rport_down c_dm_failed
else
	# The in-tree rport may stay "running" through the cut (its
	# recovery starts from the SCSI error handler): time dm's failover.
	lab_watch 90 c_dm_failed
	LAB_AT[c_rport_down]=$(c_rport_down && echo "(by then)" || echo never)
fi
kmark=$(lab_ktime "lab: path 0 cut in place")
kmsg=$(lab_ktime "$(ka_msg_re $h0)")
kdelay=$([ -n "$kmsg" ] && lab_sub "$kmsg" "$kmark")
# dm's failover by the kernel's clock too: the poll of dmsetup lags by
# seconds on a loaded host (boot 20261207-004654, load 11: "Failing path"
# 9.35 s after the cut in place, first seen by the poll at 11.15 s).
kdm=$(lab_ktime "device-mapper: multipath: [0-9:]+: Failing path $MM\\.")
kdm=$([ -n "$kdm" ] && lab_sub "$kdm" "$kmark")
lab_note "path 0 under fio: rport left running after ${LAB_AT[c_rport_down]} s, dm failed" \
	"the path after ${kdm:-never} s (${LAB_AT[c_dm_failed]} s polled), keep-alive message after ${kdelay:-never} s (kernel clock)"
lab_log_since | grep -E "$(ka_msg_re $h0)|Failing path|host$h0" | head -8
lab_note "soft-RoCE counters that moved: $(ka_rxe_delta "$rxa0" "$(ka_rxe_snap "*")")"
if ours; then
	check "path 0's rport leaves running within K + fast_io_fail_tmo + 2 = $FAIL_BOUND s (${LAB_AT[c_rport_down]} s)" \
		lab_within "${LAB_AT[c_rport_down]}" $FAIL_BOUND
	check "dm fails path 0 ($d0) within $FAIL_BOUND s of the drop (${kdm:-never} s, kernel clock)" \
		lab_within "${kdm:-never}" $FAIL_BOUND
	if lab_rxe_fails_cut_qps; then
		kfail=$(lab_ktime "$(ka_msg_re $h0)|scsi host$h0: channel [0-9]+: [A-Z_]+ failed: ")
		kfail=$([ -n "$kfail" ] && lab_sub "$kfail" "$kmark")
		check "the path failed within K + 2 = $IDLE_BOUND s (${kfail:-never} s; keep-alive message ${kdelay:-never}: soft-RoCE fails the QPs first on $(uname -r))" \
			lab_within "$kfail" $IDLE_BOUND
	else
		check "the keep-alive failed the path: message within K + 2 = $IDLE_BOUND s (${kdelay:-never} s)" \
			lab_within "$kdelay" $IDLE_BOUND
	fi
else
	check "dm fails path 0 ($d0) (after ${LAB_AT[c_dm_failed]} s; no keep-alive in-tree)" c_dm_failed
fi
# (dmsetup, not multipath -ll: its path checkers wait on the dead path)
dmsetup status $MAP
check "I/O goes on over path 1 (fio alive)" kill -0 $fpid
lab_path_restore 0
LAB_T0=$EPOCHREALTIME
lab_watch 90 c_rport_up c_dm_active
lab_note "path 0 restored: rport running after ${LAB_AT[c_rport_up]} s, dm path active after ${LAB_AT[c_dm_active]} s"
if ours; then
	check "path 0's rport running within reconnect_delay + 10 = $BACK_BOUND s of the restore (${LAB_AT[c_rport_up]} s)" \
		lab_within "${LAB_AT[c_rport_up]}" $BACK_BOUND
else
	check "path 0's rport reconnects (${LAB_AT[c_rport_up]} s after the restore)" c_rport_up
fi
check "dm reinstates path 0 (${LAB_AT[c_dm_active]} s after the restore)" c_dm_active
if kill -0 $fpid 2>/dev/null; then
	check "path 0 carries fio's I/O again" lab_disk_moves $d0 20
else
	check "path 0 serves I/O again (direct read of $d0)" \
		dd if=/dev/$d0 of=/dev/null bs=64k count=16 iflag=direct status=none
fi
wait $fpid
rc=$?
lat=$(lab_fio_max_lat /tmp/ka-cut.json)
lab_note "fio across the cut: exit $rc, errors $(lab_fio_errors /tmp/ka-cut.json), longest I/O $lat s"
check "fio verify across the cut: exit 0, no error" lab_fio_ok /tmp/ka-cut.json $rc
[ $rc -eq 0 ] || tail -20 /tmp/ka-cut.err
ours && check "longest I/O across the cut within $LAT_BOUND s ($lat s)" lab_within "$lat" $LAT_BOUND

# --- 3. no false positives: heavy I/O on healthy paths, a slow LUN
maps=$(for d in $(lab_host_disks "$h0"); do lab_mp_map_of $d; done | sort -u)
check "a map for each LUN ($(echo $maps))" test "$(echo $maps | wc -w)" = 2
args=()
for m in $maps; do
	args+=("--name=soak-$m" "--filename=/dev/mapper/$m")
done
declare -A pb fr
for h in $h0 $h1; do
	ours && pb[$h]=$(ka_probes $h)
	fr[$h]=$(cat /sys/class/srp_remote_ports/port-$h:1/failed_reconnects)
done
rx0=$(ka_rxe_snap)
lab_log_mark
lab_note "soak: fio verify on $(echo $maps) for $KA_SOAK_SECS s"
fio --direct=1 --ioengine=libaio --rw=randrw --bsrange=4k-64k --iodepth=32 \
	--size=32m --verify=crc32c --verify_fatal=1 --do_verify=1 --time_based \
	--runtime=$KA_SOAK_SECS --output-format=json --output=/tmp/ka-soak.json \
	"${args[@]}" 2>/tmp/ka-soak.err
rc=$?
lat=$(lab_fio_max_lat /tmp/ka-soak.json)
lab_note "soak: fio exit $rc, longest I/O $lat s, $(jq -r '[.jobs[] | .read.io_kbytes + .write.io_kbytes] | add / 1024 | floor' /tmp/ka-soak.json) MiB"
check "soak: fio verify exit 0, no error" lab_fio_ok /tmp/ka-soak.json $rc
[ $rc -eq 0 ] || tail -20 /tmp/ka-soak.err
lab_note "soak: soft-RoCE retries: $(ka_rxe_delta "$rx0" "$(ka_rxe_snap)")"
# No keep-alive failure in the soak, and no registration that soft-RoCE
# 6.1 ran twice ("rxe_reg_fast_mr: mr->lkey ... not free", docs/lab.md):
# it broke a QP in 1 soak of 6 (2026-12-02), and the keep-alive then
# failed that path, as it must, until ib_srp chained a LOCAL_INV of the
# previous key in front of each command's registrations (srp/data.c).
# The in-tree ib_srp chains none: its count is recorded.
if ours; then
	check "soak: soft-RoCE ran no registration twice (no 'not free')" \
		lab_log_lacks "rxe_reg_fast_mr: .* not free"
else
	pass "in-tree, recorded: soak: $(lab_log_count "rxe_reg_fast_mr: .* not free") 'not free' line(s)"
fi
check "soak: no keep-alive failure" lab_log_lacks_context "keep-alive"
check "soak: dm failed no path" lab_log_lacks "Failing path"
for h in $h0 $h1; do
	r=/sys/class/srp_remote_ports/port-$h:1
	check "soak: host$h's rport running, no failed reconnect" \
		test "$(cat $r/state) $(cat $r/failed_reconnects)" = "running ${fr[$h]}"
	if ours; then
		n=$(($(ka_probes $h) - ${pb[$h]}))
		nch=$(cat /sys/class/scsi_host/host$h/ch_count)
		# The idle rate (a probe per K/2 of silence): the most a channel
		# may send. A driver that probed busy channels at that rate would
		# pass; what a busy one sends is not bounded yet (20 per host in
		# 60 s, 2 channels, K 5, boot 20261205-171052).
		max=$((nch * (2 * KA_SOAK_SECS / K + 1)))
		lab_note "soak: host$h sent $n probes on $nch channel(s) in $KA_SOAK_SECS s of fio"
		check "soak: host$h sent no more probes than idle channels would ($n <= $max)" \
			test $n -le $max
	fi
done

# The slow LUN: LIO iblock on dm-delay over a loop device, exported as LUN
# 2 on path 1's target port. It is scanned with no delay, then one read
# takes KA_SLOW_MS: the channel has a command outstanding and sees no
# completion for that long; the probes keep the path alive. multipathd is
# down: its checker would send commands to the LUN meanwhile. udev stays
# out of the delay: on a table change it runs blkid on the dm device (a
# read of KA_SLOW_MS each) and dmsetup waits for it, so udev's queue is
# stopped and dmsetup does not wait for udev while the delay is set.
check "multipath maps flushed" lab_multipathd_down
modprobe dm_delay && modprobe loop && modprobe target_core_iblock
truncate -s 64M /tmp/ka-slow.img
lo=$(losetup -f --show /tmp/ka-slow.img)
sz=$(blockdev --getsz "$lo")
check "dm-delay device over $lo" dmsetup create kaslow --table "0 $sz delay $lo 0 0"
bs=$CFS/core/iblock_90/kaslow
mkdir -p $bs
echo udev_path=/dev/mapper/kaslow > $bs/control
echo 1 > $bs/enable
printf '%02x%02x%028x\n' 9 2 0 > $bs/wwn/vpd_unit_serial
port=$(_lab_rxe_guid_name ${PATH_RXET[1]})
tpg=$CFS/srpt/$port/$port
acl=$tpg/acls/${PATH_IPT[1]}
mkdir -p $tpg/lun/lun_2 && ln -s $bs $tpg/lun/lun_2/ &&
	mkdir -p $acl/lun_2 && ln -s $tpg/lun/lun_2 $acl/lun_2/
check "slow LUN exported as LUN 2 on path 1" test -e $acl/lun_2/lun_2
echo "- - -" > /sys/class/scsi_host/host$h1/scan
slow_disk() { ls /sys/class/scsi_host/host$h1/device/target*/$h1:0:0:2/block 2>/dev/null; }
lab_wait 60 slow_disk
ds=$(slow_disk)
check "host$h1 sees the slow LUN ($ds)" test -n "$ds"
udevadm settle
ka_delay() {
	dmsetup --noudevsync suspend kaslow &&
	dmsetup --noudevsync load kaslow --table "0 $sz delay $lo 0 $1 $lo 0 0" &&
	dmsetup --noudevsync resume kaslow
}
udevadm control --stop-exec-queue
ka_delay $KA_SLOW_MS
check "slow LUN: reads delayed $KA_SLOW_MS ms" sh -c "dmsetup table kaslow | grep -q ' $KA_SLOW_MS '"
ours && p1=$(ka_probes $h1)
fr1=$(cat /sys/class/srp_remote_ports/port-$h1:1/failed_reconnects)
lab_log_mark
t=$EPOCHREALTIME
dd if=/dev/$ds of=/dev/null bs=4k count=1 skip=$((RANDOM % 1000)) iflag=direct status=none
rc=$?
el=$(lab_sub "$EPOCHREALTIME" "$t")
lab_note "slow LUN: one read took $el s (exit $rc)"
check "slow LUN: the read completes ($el s)" test $rc -eq 0
check "slow LUN: it did take KA_SLOW_MS ($el s >= $((KA_SLOW_MS / 1000 - 1)) s)" \
	awk -v t="$el" -v l=$((KA_SLOW_MS / 1000 - 1)) 'BEGIN { exit !(t >= l) }'
check "slow LUN: no keep-alive failure" lab_log_lacks "keep-alive"
check "slow LUN: no abort, no reset" lab_log_lacks "host$h1: .*(abort|reset)"
check "slow LUN: host$h1's rport running, no failed reconnect" \
	test "$(cat /sys/class/srp_remote_ports/port-$h1:1/state) $(cat /sys/class/srp_remote_ports/port-$h1:1/failed_reconnects)" = "running $fr1"
if ours; then
	n=$(($(ka_probes $h1) - p1))
	lab_note "slow LUN: host$h1 sent $n probes while the read was outstanding"
	check "slow LUN: probes were sent and answered meanwhile ($n)" test $n -ge 1
fi
# Away with it: no delay, the SCSI device, the LUN, the backstore.
ka_delay 0
udevadm control --start-exec-queue
# Seen twice (a CI run, boot 20261203-233546 on 6.1): udev's queue did not
# drain in 120 s here, and the dmsetup remove below then waited for udev for
# ever (killed at the cap: "waiting in: dmsetup remove kaslow [S
# do_semtimedop]", no task blocked in the kernel). Not understood yet: the
# check names udev's and multipathd's waits when it fails, and the removal
# then goes on without udev, so the boot's later scenarios are not poisoned.
check "udev's queue drains once the slow LUN is fast again" lab_udev_settle 120
echo 1 > /sys/block/$ds/device/delete
lab_wait 30 sh -c "[ -z \"\$(ls -d /sys/class/scsi_host/host$h1/device/target*/$h1:0:0:2 2>/dev/null)\" ]"
rm -f $acl/lun_2/lun_2 && rmdir $acl/lun_2
rm -f $tpg/lun/lun_2/kaslow && rmdir $tpg/lun/lun_2
rmdir $bs $CFS/core/iblock_90
if ! timeout 60 dmsetup remove kaslow; then
	lab_note "dmsetup remove kaslow: no answer from udev in 60 s; removing without udev sync"
	dmsetup remove --noudevsync kaslow
	dmsetup udevcomplete_all -y
fi
losetup -d "$lo"
rm -f /tmp/ka-slow.img
check "slow LUN removed (target and initiator)" \
	sh -c "[ ! -e $tpg/lun/lun_2 ] && [ ! -e $CFS/core/iblock_90 ] && ! dmsetup info kaslow >/dev/null 2>&1 && [ \$(ls -d /sys/class/scsi_host/host$h1/device/target*/*:*:*:* | wc -l) -eq 2 ]"

# --- 4. keepalive=0, the module parameter, out-of-range values; an idle
# channel's worst moment
check "logout" srp_logout_all
if ours; then
	# ib_srp.keepalive=8 for the next login (no key), and one channel, so
	# that the drop below comes right after that channel's probe.
	KW=8
	echo $KW > $KA_PARAM
	ha=$(lab_path_srp_login 0 ch_count=1) && pass "login over path 0 with ib_srp.keepalive=$KW, ch_count=1" ||
		fail "login over path 0 with ib_srp.keepalive=$KW, ch_count=1"
	hb=$(lab_path_srp_login 1 keepalive=0) && pass "login over path 1 with keepalive=0" ||
		fail "login over path 1 with keepalive=0"
	echo "$ka_def" > $KA_PARAM
	check "no key: keepalive $KW, the module parameter at login" \
		test "$(cat /sys/class/scsi_host/host$ha/keepalive)" = $KW
	check "no key: keepalive_state on" test "$(cat /sys/class/scsi_host/host$ha/keepalive_state)" = on
	check "ib_srp.keepalive changed back: the logged-in host keeps $KW" \
		test "$(cat /sys/class/scsi_host/host$ha/keepalive)" = $KW
	check "keepalive=0: keepalive 0" test "$(cat /sys/class/scsi_host/host$hb/keepalive)" = 0
	check "keepalive=0: keepalive_state off" test "$(cat /sys/class/scsi_host/host$hb/keepalive_state)" = off
	/lab/tools/rdi-status 2>/dev/null
	R0=/sys/class/srp_remote_ports/port-$ha:1
	echo $DEVLOSS > $R0/dev_loss_tmo
	echo $FASTFAIL > $R0/fast_io_fail_tmo
	echo $RECONNECT > $R0/reconnect_delay
	# The one channel's last completion is the answer to its probe; the
	# path goes silent right after it. Noticed within K of that answer
	# (K + 2 s of the drop, as in part 1), whatever the phase. The scan
	# of the new logins' LUNs is over first, and the drop follows the
	# second probe after it: nothing but probes before it on the channel.
	check "host$ha has its LUNs" srp_wait_disks "$ha" 2
	check "host$hb has its LUNs" srp_wait_disks "$hb" 2
	udevadm settle
	pa=$(ka_probes $ha)
	ka_pa() { ka_probes_past $ha $((pa + 1)); }
	LAB_T0=$EPOCHREALTIME
	lab_watch $((3 * KW + 5)) ka_pa
	check "keepalive $KW, idle: the channel probes twice (in ${LAB_AT[ka_pa]} s)" ka_pa
	sleep 0.3	# the probe's answer (not observable before it is reaped)
	lab_log_mark
	lab_path_cut 0
	LAB_T0=$EPOCHREALTIME
	lab_watch $((KW + 2 + 20)) c_rport_down
	kmark=$(lab_ktime "lab: path 0 cut in place")
	kmsg=$(lab_ktime "$(ka_msg_re $ha)")
	kdelay=$([ -n "$kmsg" ] && lab_sub "$kmsg" "$kmark")
	lab_note "one idle channel (two probes in ${LAB_AT[ka_pa]} s), cut 0.3 s after the second: rport left running after" \
		"${LAB_AT[c_rport_down]} s, keep-alive message after ${kdelay:-never} s (kernel clock)"
	check "one idle channel, cut right after its probe: keep-alive message within K + 2 = $((KW + 2)) s of the drop (${kdelay:-never} s)" \
		lab_within "$kdelay" $((KW + 2))
	check "one idle channel, cut right after its probe: rport leaves running within $((KW + 2)) s (${LAB_AT[c_rport_down]} s)" \
		lab_within "${LAB_AT[c_rport_down]}" $((KW + 2))
	lab_path_restore 0
	LAB_T0=$EPOCHREALTIME
	lab_watch 60 c_rport_up
	check "it comes back: rport running (${LAB_AT[c_rport_up]} s after the restore)" c_rport_up
	check "keepalive=0: no probe at all (host$hb, idle since its login)" test "$(ka_probes $hb)" = 0
	g=$(srpt_guid)
	# (bash: dash's echo reports every failed write as an I/O error)
	ka_einval() {
		local out
		out=$(bash -c 'echo "$1" > "$2"' _ "id_ext=$g,ioc_guid=$g,dest=${PATH_IPT[0]}:$SRP_PORT,keepalive=$1" \
			/sys/class/infiniband_srp/srp-${PATH_RXEI[0]}-1/add_target 2>&1) && { echo "accepted"; return 1; }
		grep -q "Invalid argument" <<<"$out" || { echo "$out"; return 1; }
	}
	for v in 3601 -1 x; do
		check "keepalive=$v refused (EINVAL)" ka_einval $v
	done
	check "logout" srp_logout_all
	check "ib_srp.keepalive back to $ka_def" test "$(cat $KA_PARAM)" = "$ka_def"
fi
check "ib_srp unloads" lab_unload ib_srp
