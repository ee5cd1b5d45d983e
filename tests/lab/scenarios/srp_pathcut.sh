# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# dm-multipath over two SRP paths that can really be cut (lib-path.sh: a
# veth pair per path, rxe on both ends). fio verify runs on the map while
# path 0's RoCE packets are dropped: its I/O stalls, the rport goes blocked
# and fail-fast through the transport timers, dm fails the path over and
# fio sees no error. Path restored: the rport reconnects (reconnect_delay),
# multipath reinstates the path, the data checks out.
#
# Bounds (issue 31), K the login's keep-alive: dm fails the path within
# K + fast_io_fail_tmo + 2 s of the drop (kernel clock), the rport is
# running again within reconnect_delay + 10 s of the restore. Then, idle,
# path 0 is dropped for longer than dev_loss_tmo (PC_DEVLOSS, 8 s): the
# port is removed at dev_loss_tmo after it left running (+ 3 s), not
# later. Its DREQs are lost in the drop: ib_srp keeps the removed login's
# RDMA/CM ids while the path is cut, and within PC_LINGER_BACK s of the
# restore the CM has finished the disconnect, ib_srpt has let go of the
# channels and the ids are gone (srp_linger: the same after an rport
# delete, an unload under a cut, and the in-tree driver). The tx side of
# the same drops is srp_txcut's.
#
# With DRIVER=intree (tests/run-all --compare) the same drops record the
# in-tree figures (when the rport left running and failed fast, when dm
# failed the path, when the path was back, when the idle port went) as
# notes and PASS lines that apply none of ours' bounds: the in-tree
# ib_srp has no keep-alive (docs/srp.md). In the drop past dev_loss_tmo a
# direct read is outstanding on path 0, else the in-tree driver never
# notices the idle path; its linger is srp_linger's.
#
# lab-drivers: ours intree
# lab-provokes: srp-path srp-reconnect mpath rxe wc-error scsi-eh (path 0 cut under dm-multipath)
# lab-boot: pathcut
# lab-long: PC_LINGER=1
. /lab/lib-srp.sh
. /lab/lib-path.sh
. /lab/lib-time.sh

: "${PC_DEVLOSS:=8}"
: "${PC_LINGER_BACK:=20}"
: "${PC_LOSSY_SECS:=15}"
RECONNECT=2 FASTFAIL=5
c_rport_down() { ! grep -qx running $r0/state; }
c_rport_up() { grep -qx running $r0/state; }
c_host_gone() { [ ! -e /sys/class/scsi_host/host$h0 ]; }
ours() { [ "$DRIVER" = ours ]; }
# ib_srp's RDMA/CM ids to the target end of path 0.
pc_own_ids() { rdma resource show cm_id 2>/dev/null | grep -F '[ib_srp]' | grep -cF "dst-addr ${PATH_IPT[0]}:"; }
# ib_srpt's channels from path 0's initiator end: its RDMA/CM ids there
# that carry a QP. Not the target end's RC QPs: an RDMA/CM QP is named
# [rdma_cm] whoever made it, and other scenarios of the boot (iSER over
# the same path) can leave QPs of their own there.
pc_tgt_chans() {
	rdma resource show cm_id link ${PATH_RXET[0]}/1 2>/dev/null | grep -F '[ib_srpt]' |
		grep -F "dst-addr ${PATH_IPI[0]}:" | grep -c ' lqpn '
}
pc_tgt_qps() { rdma resource show qp link ${PATH_RXET[0]}/1 2>/dev/null | grep -cw RC; }
# pc_tgt_show WHEN: the target end's RC QPs and RDMA/CM ids, for the log.
pc_tgt_show() {
	lab_note "$1: target end of path 0: $(pc_tgt_qps) RC QPs, $(pc_tgt_chans) ib_srpt channels from ${PATH_IPI[0]}"
	rdma resource show qp link ${PATH_RXET[0]}/1 2>/dev/null | grep -w RC
	rdma resource show cm_id link ${PATH_RXET[0]}/1 2>/dev/null
}
c_linger_over() { [ "$(pc_own_ids)" = 0 ] && [ "$(pc_tgt_chans)" = 0 ]; }
# pc_expect NAME SECS CMD...: ours: a check that CMD holds within SECS s;
# in-tree: when it did, or that it did not, recorded (ours' expectation
# not applied).
pc_expect() {
	local name=$1 secs=$2 t0=$EPOCHREALTIME
	shift 2
	if ours; then
		check "$name" lab_wait "$secs" "$@"
	elif lab_wait "$secs" "$@" >/dev/null 2>&1; then
		pass "in-tree, recorded: $name: after $(lab_sub "$EPOCHREALTIME" "$t0") s"
	else
		pass "in-tree, recorded: $name: not within $secs s"
	fi
}
# pc_bound NAME VALUE LIMIT: ours: VALUE is within LIMIT; in-tree: VALUE
# recorded.
pc_bound() {
	if ours; then
		check "$1 ($2 s)" lab_within "$2" "$3"
	else
		pass "in-tree, recorded: ${1%% within*} ($2 s; ours' bound $3 s not applied)"
	fi
}

check "cuttable paths up" lab_path_up
check "SRP target ports on both paths" lab_path_srpt_up 2
check "multipathd up" lab_multipathd_up
check "ib_srp loads" lab_srp_load
h0=$(lab_path_srp_login 0 "$SRP_PATH_OPTS") && pass "login over path 0" || fail "login over path 0"
h1=$(lab_path_srp_login 1 "$SRP_PATH_OPTS") && pass "login over path 1" || fail "login over path 1"
check "path 0 has its LUNs" srp_wait_disks "$h0" 2
check "path 1 has its LUNs" srp_wait_disks "$h1" 2
for h in $h0 $h1; do
	r=/sys/class/srp_remote_ports/port-$h:1
	echo 60 > $r/dev_loss_tmo
	echo $FASTFAIL > $r/fast_io_fail_tmo
	echo $RECONNECT > $r/reconnect_delay
done
r0=/sys/class/srp_remote_ports/port-$h0:1
check "rport timers set" grep -qx $FASTFAIL $r0/fast_io_fail_tmo
d0=$(lab_host_disks "$h0" | head -1)
MM=$(cat /sys/block/$d0/dev)
# The in-tree driver has no keep-alive: K 0 for its (unapplied) bounds.
K=$(cat /sys/class/scsi_host/host$h0/keepalive 2>/dev/null || echo 0)
FAIL_BOUND=$((K + FASTFAIL + 2))
BACK_BOUND=$((RECONNECT + 10))
check "multipath map with 2 paths per LUN" lab_wait 60 sh -c \
	"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
lab_wait 20 lab_mp_map_of "$d0"
map=$(lab_mp_map_of "$d0")
multipath -ll
check "LUN 0 of path 0 ($d0) is in map $map" test -n "$map"
pc_tgt_show "logged in"

# Registrations that soft-RoCE 6.1 replays (docs/lab.md): path 0 loses 1%
# of what the initiator sends (lab_path_lossy) for PC_LOSSY_SECS of fio
# verify on its disk, so its QPs retransmit with new registrations queued
# behind unacknowledged SENDs.
# ours chains a LOCAL_INV of the previous key in front of each command's
# registrations (srp/data.c), which rxe holds until everything before it
# completed; without it a retransmission runs a REG_MR again ("rxe_reg_fast_mr:
# ... not free") and the channel's send queue stops. The in-tree ib_srp
# does not chain one: its count is recorded.
pc_retrans() { cat /sys/class/infiniband/${PATH_RXEI[0]}/ports/1/hw_counters/completer_retry_err; }
n="lossy path"
rt0=$(pc_retrans)
lab_log_mark
check "$n: path 0 loses 1% of what the initiator sends" lab_path_lossy 0
fio --name=lossy --filename=/dev/$d0 --direct=1 --ioengine=libaio \
	--rw=randrw --bsrange=4k-128k --iodepth=32 --size=64m \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --time_based \
	--runtime=$PC_LOSSY_SECS --output-format=json \
	--output=/tmp/pathcut-lossy.json 2>/tmp/pathcut-lossy.err
rc=$?
check "$n: fio verify on $d0 for $PC_LOSSY_SECS s (rc=$rc)" lab_fio_ok /tmp/pathcut-lossy.json $rc
[ $rc -eq 0 ] || tail -20 /tmp/pathcut-lossy.err
check "$n: path 0 loses nothing again" lab_path_restore 0
rt=$(($(pc_retrans) - rt0))
check "$n: path 0's QPs retransmitted ($rt times)" test "$rt" -gt 0
nf=$(lab_log_count "rxe_reg_fast_mr: .* not free")
if ours; then
	check "$n: soft-RoCE ran no registration twice (no 'not free')" \
		lab_log_lacks "rxe_reg_fast_mr: .* not free"
	check "$n: path 0's rport running, no failed reconnect" \
		test "$(cat $r0/state) $(cat $r0/failed_reconnects)" = "running 0"
else
	pass "in-tree, recorded: $n: $nf 'not free' line(s), rport $(cat $r0/state)"
	lab_wait 60 c_rport_up
fi

# The cut path's I/O waits until its rport fails fast and dm-multipath
# fails it over: its checks allow 60 s to block and 60 s to fail fast:
# that sum is the bound (LAB_IO_BOUND, lib.sh) of the loop's I/O.
LAB_IO_BOUND=120 lab_fio_loop_start /dev/mapper/$map /tmp/pathcut-fio.out
fpid=$LAB_FIO_LOOP
sleep 8
sent=$(lab_path_sent 0)
lab_wait 20 lab_disk_busy "$d0"
lab_note "cutting path 0 (rxe ${PATH_RXEI[0]} has sent $sent packets)"
drops=$(lab_path_dropped)	# the count adds up over the boot
lab_log_mark
lab_path_cut 0
check "path 0's I/O stalls while it is cut" lab_disk_stalls "$d0" 0 3
check "RoCE packets of path 0 are dropped" test "$(lab_path_dropped)" -gt "$drops"
pc_expect "path 0's rport leaves running" 60 sh -c "! grep -qx running $r0/state"
lab_note "rport state: $(cat $r0/state)"
pc_expect "path 0's rport fails fast (fast_io_fail_tmo)" 60 grep -qx fail-fast $r0/state
pc_expect "multipath fails path 0 ($d0)" 30 lab_mp_is $d0 failed
# When, by the kernel's clock from the mark written before the cut.
kdm=$(lab_kdelta "$LAB_LOG_MARK" "device-mapper: multipath: [0-9:]+: Failing path $MM\\.")
lab_note "dm failed path 0 ${kdm:-never} s after the drop (kernel clock)"
pc_bound "dm fails path 0 within K + fast_io_fail_tmo + 2 = $FAIL_BOUND s of the drop (kernel clock)" \
	"${kdm:-never}" $FAIL_BOUND
multipath -ll $map
check "I/O goes on over path 1 (fio alive)" kill -0 $fpid
sleep 5
lab_path_restore 0
LAB_T0=$EPOCHREALTIME
lab_note "path 0 restored"
lab_watch 90 c_rport_up
lab_note "path 0's rport running ${LAB_AT[c_rport_up]} s after the restore"
pc_bound "path 0's rport reconnects within reconnect_delay + 10 = $BACK_BOUND s of the restore" \
	"${LAB_AT[c_rport_up]}" $BACK_BOUND
pc_expect "multipath reinstates path 0 ($d0)" 60 lab_mp_is $d0 active
if ours; then
	check "path 0 carries I/O again" lab_disk_moves $d0 4
else
	lab_disk_moves $d0 4 >/dev/null && pass "in-tree, recorded: path 0 carries I/O again" ||
		pass "in-tree, recorded: path 0 carried no I/O within 4 s"
fi
lab_fio_loop_stop
rc=$?
check "fio verify over multipath through the cut (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/pathcut-fio.out
check "data checksummed on the map after the cut" lab_data_check /dev/mapper/$map
if ours; then
	check "both SRP hosts still there" test "$(lab_srp_hosts | wc -l)" -eq 2
else
	pass "in-tree, recorded: SRP hosts after the cut: $(lab_srp_hosts | wc -l) of 2"
fi
check "multipath maps flushed" lab_multipathd_down

# --- an idle drop longer than dev_loss_tmo: the port goes at its time
# In-tree: path 0 may not have come back, and dev_loss_tmo (60) removed it.
if ! ours && c_host_gone; then
	h0=$(lab_path_srp_login 0 "$SRP_PATH_OPTS") && srp_wait_disks "$h0" 2 &&
		pass "in-tree: path 0 logged in again for the idle drop" ||
		fail "in-tree: path 0 logged in again for the idle drop"
	r0=/sys/class/srp_remote_ports/port-$h0:1
	echo $FASTFAIL > $r0/fast_io_fail_tmo
	echo $RECONNECT > $r0/reconnect_delay
	d0=$(lab_host_disks "$h0" | head -1)
fi
echo $PC_DEVLOSS > $r0/dev_loss_tmo
check "host$h0: dev_loss_tmo $PC_DEVLOSS" grep -qx $PC_DEVLOSS $r0/dev_loss_tmo
pc_tgt_show "before the idle drop"
lab_log_mark
# Without a keep-alive (in-tree) only a command's timeout notices the drop.
ddpid=
ours || { dd if=/dev/$d0 of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null & ddpid=$!; }
lab_path_cut 0
LAB_T0=$LAB_CUT_T0
w_down=$((K + 15)) w_gone=$((PC_DEVLOSS + K + 25))
# In-tree: the read's SCSI timeout (30 s) and error handling come first.
ours || w_down=60 w_gone=$((PC_DEVLOSS + 80))
lab_watch $w_down c_rport_down
down=${LAB_AT[c_rport_down]}
lab_watch $w_gone c_host_gone
lab_note "idle drop past dev_loss_tmo: rport left running after $down s, host$h0 removed after ${LAB_AT[c_host_gone]} s"
bound=$(awk -v d="$down" -v t=$PC_DEVLOSS 'BEGIN { if (d ~ /^[0-9.]+$/) printf "%.2f", d + t + 3; else print 0 }')
pc_bound "idle path 0 leaves running within K + 2 = $((K + 2)) s of the drop" "$down" $((K + 2))
pc_bound "port removed at dev_loss_tmo: within $PC_DEVLOSS + 3 s of the failure (bound $bound)" \
	"${LAB_AT[c_host_gone]}" "$bound"
ids=$(pc_own_ids)
pc_tgt_show "removed under the cut (ib_srp: $ids RDMA/CM ids to path 0)"
# In the full run of 6df45dc (boot 20261206-232104) the linger failed: 30 s
# after the restore one RC QP was left on the target end of path 0. It
# was not ib_srpt's: the check counted every RC QP there, and an RDMA/CM
# QP is [rdma_cm] whoever made it. In the same scenario order (boot
# 20261207-004654) that QP was there at srp_pathcut's login already, and
# after: LIO's isert, an iSER connection of an earlier scenario of the
# boot (cm_id [ib_isert] 203.0.113.2:3260 <- 203.0.113.1). The check now
# counts ib_srpt's channels from path 0's initiator end: green in boots
# 20261207-004654, -011051, -014021 (6.12) and -015306, the linger over
# 3.1 to 6.9 s after the restore. It costs that much guest time, so it
# runs in --long (PC_LINGER=1) to keep the default plan's time flat.
if [ "${PC_LINGER:-0}" = 1 ] && ours; then
	check "the removed login's CM ids linger while the path is cut ($ids)" test "$ids" -ge 1
fi
lab_path_restore 0
# In-tree: its removal comes after the read's error handling.
ours || { lab_wait 60 c_host_gone; wait $ddpid; }
if [ "${PC_LINGER:-0}" = 1 ]; then
	LAB_T0=$EPOCHREALTIME
	lab_watch $((PC_LINGER_BACK + 10)) c_linger_over
	lab_note "restored: CM ids and ib_srpt's channels of path 0 gone after ${LAB_AT[c_linger_over]} s ($(pc_own_ids) ids, $(pc_tgt_chans) channels left)"
	pc_tgt_show "after the restore"
	pc_bound "within $PC_LINGER_BACK s of the restore the DREQ got through: ib_srpt let go of the channels, ib_srp of its ids" \
		"${LAB_AT[c_linger_over]}" $PC_LINGER_BACK
fi
if ours; then
	check "no task blocked for 120 s" lab_log_lacks "blocked for more than"
else
	lab_log_lacks "blocked for more than" >/dev/null ||
		lab_note "in-tree: a task blocked for 120 s: $(lab_log_lacks "blocked for more than" | head -2)"
fi
check "logout" srp_logout_all
check "ib_srp unloads" lab_unload ib_srp
