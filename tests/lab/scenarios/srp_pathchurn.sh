# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Multipath churn over cuttable SRP paths: fio verify on a map while the
# two paths are cut and restored in turn, again and again. No I/O error, no
# verify error, every cut path back and reinstated, no SCSI host leaked,
# the rport timeouts changed during a cut apply to that cut.
#
# lab-drivers: ours
# lab-provokes: srp-path srp-reconnect mpath rxe wc-error scsi-eh (paths cut and restored under dm-multipath)
# lab-boot: pathcut
. /lab/lib-srp.sh
. /lab/lib-path.sh

: "${CHURN_CYCLES:=2}"

check "cuttable paths up" lab_path_up
check "SRP target ports on both paths" lab_path_srpt_up 2
check "multipathd up" lab_multipathd_up
check "ib_srp loads" lab_srp_load
hosts_before=$(lab_srp_hosts | wc -l)
h[0]=$(lab_path_srp_login 0 "$SRP_PATH_OPTS") && pass "login over path 0" || fail "login over path 0"
h[1]=$(lab_path_srp_login 1 "$SRP_PATH_OPTS") && pass "login over path 1" || fail "login over path 1"
for p in 0 1; do
	srp_wait_disks "${h[p]}" 2
	r=/sys/class/srp_remote_ports/port-${h[p]}:1
	echo 60 > $r/dev_loss_tmo
	echo 5 > $r/fast_io_fail_tmo
	echo 2 > $r/reconnect_delay
	d[p]=$(lab_host_disks "${h[p]}" | head -1)
done
check "multipath map with 2 paths per LUN" lab_wait 60 sh -c \
	"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
lab_wait 20 lab_mp_map_of "${d[0]}"
map=$(lab_mp_map_of "${d[0]}")
check "both paths of LUN 0 in map $map" test -n "$map" -a "$map" = "$(lab_mp_map_of "${d[1]}")"

# A cut path's I/O waits until its rport fails fast and dm-multipath
# fails it over: its checks allow 60 s to block and 60 s to fail fast
# (45 s in cycle 1): that sum is the bound (LAB_IO_BOUND, lib.sh) of the
# loop's I/O.
LAB_IO_BOUND=120 lab_fio_loop_start /dev/mapper/$map /tmp/churn-fio.out
fpid=$LAB_FIO_LOOP
sleep 5
for ((c = 0; c < CHURN_CYCLES; c++)); do
	p=$((c % 2))
	r=/sys/class/srp_remote_ports/port-${h[p]}:1
	lab_note "cycle $c: cutting path $p (${d[p]})"
	# Cycle 1: a long fast_io_fail_tmo shortened while the rport is
	# blocked must apply to this very cut. A reconnect attempt in flight
	# (its login waits up to 20 s) finishes first, so allow 45 s; the
	# old 100 s timer would not fire before that.
	[ $c = 1 ] && { echo 120 > $r/dev_loss_tmo; echo 100 > $r/fast_io_fail_tmo; }
	lab_path_cut $p
	lab_wait 60 sh -c "! grep -qx running $r/state"
	if [ $c = 1 ]; then
		lab_note "  blocked; fast_io_fail_tmo 100 -> 3 while it runs"
		echo 3 > $r/fast_io_fail_tmo
		check "cycle $c: a shortened fast_io_fail_tmo applies to the running timer" \
			lab_wait 45 grep -qx fail-fast $r/state
		echo 5 > $r/fast_io_fail_tmo
	else
		check "cycle $c: path $p's rport fails fast" lab_wait 60 grep -qx fail-fast $r/state
	fi
	check "cycle $c: multipath fails path $p" lab_wait 30 lab_mp_is ${d[p]} failed
	lab_path_restore $p
	check "cycle $c: path $p's rport reconnects" lab_wait 90 grep -qx running $r/state
	# back to the usual device-loss timeout once no timer runs
	[ $c = 1 ] && echo 60 > $r/dev_loss_tmo
	check "cycle $c: multipath reinstates path $p" lab_wait 60 lab_mp_is ${d[p]} active
	check "cycle $c: fio still running" kill -0 $fpid
	check "cycle $c: no SCSI host leaked or lost" test "$(lab_srp_hosts | wc -l)" -eq $((hosts_before + 2))
done
lab_fio_loop_stop
rc=$?
check "fio verify through $CHURN_CYCLES cut/restore cycles (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/churn-fio.out
check "data checksummed on the map after the churn" lab_fio_verify /dev/mapper/$map --size=8m
check "multipath maps flushed" lab_multipathd_down
check "logout" srp_logout_all
check "no SCSI host left behind" test "$(lab_srp_hosts | wc -l)" -eq "$hosts_before"
check "ib_srp unloads" lab_unload ib_srp
