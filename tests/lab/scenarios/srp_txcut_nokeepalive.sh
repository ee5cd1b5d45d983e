# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# srp_txcut's drop with the keep-alive off, ours against the in-tree ib_srp
# in the same boot (issue 31: "never worse than the in-tree driver"). Two
# paths to one LIO target with the default login string (tl_retry_count 7:
# soft-RoCE retries for ever, so only the SCSI command timeout notices the
# drop), rport timers reconnect_delay 2, fast_io_fail_tmo 4, dev_loss_tmo
# 60, fio verify on the dm-multipath map, path 0 refused on both veth ends
# where packets leave for TX_DROP_SECS (60). Run once with the in-tree
# ib_srp (modprobe, DRIVER=intree: it must come from kernel/), then once
# with ours, loaded with insmod from the payload with keepalive=0 (its
# build ID must be this build's), and compared:
#   - when dm-multipath failed the path (kernel clock, from the drop),
#   - fio's longest I/O across the drop,
#   - when path 0's disk served a direct read again after the drop ended
#     (reads one after the other from the drop's end until one completes:
#     the in-tree driver may never take the rport out of "running", and
#     dm-multipath's reinstatement waits for multipathd's next check, up
#     to its polling interval; both are noted),
#   - no data error (fio verify).
# Ours must be no worse than the in-tree figure + NK_MARGIN (2 s) for each
# time; the in-tree figures are printed beside ours. The margin is for a
# single run against a single run under TCG: the driver's own times (the
# rport's state, fio's longest I/O) moved by about a second between boots.
#
# dm's failover here is the driver's: multipathd's checker is kept out of
# it (checker_timeout 90, longer than the drop). With the keep-alive off
# neither driver notices the drop before the 30 s SCSI timeout, and
# multipathd's TUR, whose timeout is the disk's 30 s by default, failed
# the path first for both: 30 s plus when the checker had last sent a TUR
# before the drop, which multipathd spaces up to max_polling_interval (8 s
# here). The in-tree driver's time was 32.4, 39.2 and 32.7 s in three
# boots and "never" (no TUR timed out within the 60 s drop) in a fourth
# (20261206-021657 twice, -022042, -023459), with nothing of the driver's
# in it.
#
# NK_SIDES (colon-separated, default "tx") names the sides of path 0 that
# are cut, one drop each per driver: tx as above, rx where the packets
# arrive (lost, not held; the rx drops of srp_keepalive with the keep-alive
# off). Each side is compared on its own. rx is not in the default: the
# in-tree driver's I/O waits up to 124 s there and the kernel reports fio
# blocked for more than 60 s, which fails the boot's clean-kernel-log
# check (boot 20261206-215005); run it as LAB_ENV=NK_SIDES=tx:rx
# tests/lab/run --driver intree srp_txcut_nokeepalive. Only where a tx
# drop holds the packets (6.1, lab_path_tx_holds): on 6.12 the scenario
# is skipped.
#
# It needs both drivers in one boot, so it runs in the in-tree comparison
# only (tests/run-all --compare, or tests/lab/run --driver intree
# srp_txcut_nokeepalive), not in the default tests/run-all: the two 60 s
# drops cost several minutes of a CI run already at its limit.
#
# lab-drivers: intree
# lab-provokes: srp-path srp-reconnect scsi-eh mpath rxe wc-error (the path drops its packets with no keep-alive: the SCSI error handler finds it)
# lab-boot: pathcut
# lab-timeout: 1500
. /lab/lib-srp.sh
. /lab/lib-path.sh
. /lab/lib-time.sh

: "${TX_DROP_SECS:=60}"
: "${NK_MARGIN:=2}"
: "${NK_SIDES:=tx}"
RECONNECT=2 FASTFAIL=4 DEVLOSS=60
# multipathd's TUR outlasts the drop: dm fails the path on the driver's
# I/O errors only (see above).
LAB_MP_DEFAULTS="	checker_timeout 90"
declare -A FIG_FAIL FIG_LAT FIG_BACK FIG_RC

c_rport_down() { ! grep -qx running $R0/state; }
c_rport_up() { grep -qx running $R0/state; }
c_dm_failed() { dmsetup status "$MAP" | grep -q " $MM F "; }
c_dm_active() { dmsetup status "$MAP" | grep -q " $MM A "; }
# nk_read_back DISK SECS: direct reads of DISK, one after the other, until
# one completes or SECS have passed; NK_BACK is then the seconds from
# LAB_T0 to the end of that read, or "never".
nk_read_back() {
	local end=$((SECONDS + $2))
	NK_BACK=never
	while [ $SECONDS -lt $end ]; do
		if dd if=/dev/$1 of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null; then
			NK_BACK=$(lab_sub "$EPOCHREALTIME" "$LAB_T0")
			return 0
		fi
		sleep 0.2
	done
	return 1
}
nk_timers() {
	local h r
	for h; do
		r=/sys/class/srp_remote_ports/port-$h:1
		echo $DEVLOSS > $r/dev_loss_tmo && echo $FASTFAIL > $r/fast_io_fail_tmo &&
			echo $RECONNECT > $r/reconnect_delay || return 1
	done
}

# nk_load_ours: the in-tree ib_srp out, ours in from the payload (the guest
# installs ours in updates/ only with DRIVER=ours), keep-alive off. Ours
# uses the in-tree scsi_transport_srp, which stays loaded.
nk_load_ours() {
	rmmod ib_srp || return 1
	modprobe -a scsi_transport_srp ib_cm rdma_cm || return 1
	insmod /lab/ko/rdi_core.ko || return 1
	insmod /lab/ko/ib_srp.ko keepalive=0
}

# nk_no_worse OURS INTREE: ours took at most the in-tree time + NK_MARGIN;
# "never" is later than any time.
nk_no_worse() {
	local num='^[0-9]+(\.[0-9]+)?$'
	echo "ours $1 s, in-tree $2 s, margin $NK_MARGIN s"
	[[ $2 =~ $num ]] || return 0
	[[ $1 =~ $num ]] || return 1
	awk -v o="$1" -v i="$2" -v m="$NK_MARGIN" 'BEGIN { exit !(o <= i + m) }'
}

# nk_drop WHO SIDE: log in over both paths, fio verify on the map, path 0
# dropped on SIDE (tx: refused where packets leave; rx: where they arrive)
# for TX_DROP_SECS, restored; the figures go to FIG_*[WHO SIDE].
nk_drop() {
	local who="$1 $2" side=$2 h0 h1 d0 fpid rest kdm rc
	h0=$(lab_path_srp_login 0 "") && srp_wait_disks "$h0" 2 &&
		pass "$who: login over path 0 with the default login string" ||
		fail "$who: login over path 0 with the default login string"
	h1=$(lab_path_srp_login 1 "") && srp_wait_disks "$h1" 2 &&
		pass "$who: login over path 1" || fail "$who: login over path 1"
	R0=/sys/class/srp_remote_ports/port-$h0:1
	check "$who: rport timers $RECONNECT/$FASTFAIL/$DEVLOSS on both hosts" \
		nk_timers $h0 $h1
	if [ "$1" = ours ]; then
		check "ours: keep-alive off on both hosts" sh -c \
			"grep -qx off /sys/class/scsi_host/host$h0/keepalive_state &&
			 grep -qx off /sys/class/scsi_host/host$h1/keepalive_state"
	fi
	d0=$(lab_host_disks "$h0" | head -1)
	lab_mp_two_paths "$d0"
	check "$who: LUN 0 of path 0 ($d0, $MM) is an active path of map $MAP" c_dm_active
	fio --name=txcut --filename=/dev/mapper/$MAP --direct=1 --ioengine=libaio \
		--rw=randrw --bs=4k --iodepth=16 --size=32m --verify=crc32c \
		--verify_fatal=1 --do_verify=1 --time_based \
		--runtime=$((TX_DROP_SECS + 15)) \
		--output-format=json --output=/tmp/nk-$1-$2.json 2>/tmp/nk-$1-$2.err &
	fpid=$!
	check "$who: fio runs over path 0 ($d0)" lab_disk_moves $d0 30
	lab_log_mark
	# Not in check(): its subshell would lose LAB_CUT_T0.
	lab_path_cut 0 $side $TX_DROP_SECS &&
		pass "$who: path 0 dropped for $TX_DROP_SECS s" ||
		fail "$who: path 0 dropped for $TX_DROP_SECS s"
	LAB_T0=$LAB_CUT_T0
	lab_watch $TX_DROP_SECS c_rport_down c_dm_failed
	kdm=$(lab_kdelta "$LAB_LOG_MARK" "device-mapper: multipath: [0-9:]+: Failing path $MM\\.")
	FIG_FAIL[$who]=${kdm:-never}
	lab_note "$who: rport left running after ${LAB_AT[c_rport_down]} s, dm failed the path after ${FIG_FAIL[$who]} s (kernel clock; ${LAB_AT[c_dm_failed]} s polled)"
	lab_path_cut_wait
	nk_read_back $d0 60
	FIG_BACK[$who]=$NK_BACK
	lab_watch 60 c_rport_up c_dm_active
	lab_note "$who: drop ended: $d0 read after ${FIG_BACK[$who]} s, rport running after ${LAB_AT[c_rport_up]} s, dm path active after ${LAB_AT[c_dm_active]} s"
	lab_log_since | grep -E "host$h0|cm_destroy_id|blocked for|Failing path" | head -20
	wait $fpid
	rc=$?
	FIG_RC[$who]=$rc
	FIG_LAT[$who]=$(lab_fio_max_lat /tmp/nk-$1-$2.json)
	lab_note "$who: fio across the drop: exit $rc, errors $(lab_fio_errors /tmp/nk-$1-$2.json), longest I/O ${FIG_LAT[$who]} s"
	[ $rc -eq 0 ] || tail -20 /tmp/nk-$1-$2.err
	check "$who: fio verify across the drop: exit 0, no data error" lab_fio_ok /tmp/nk-$1-$2.json $rc
	check "$who: multipath maps flushed" lab_multipathd_down
	check "$who: logout" srp_logout_all
}

if ! lab_path_tx_holds; then
	skip "tx cut" "no tx cut on $(uname -r): lab_path_tx_holds"
	exit 0
fi
check "cuttable paths up" lab_path_up
check "SRP target ports on both paths" lab_path_srpt_up 2

# --- the in-tree ib_srp (it has no keep-alive)
check "in-tree ib_srp loads (from kernel/)" lab_srp_load
for side in ${NK_SIDES//:/ }; do
	nk_drop intree $side
done

# --- ours, keepalive=0
check "ours loaded in place of the in-tree ib_srp, keepalive=0" nk_load_ours
for m in ib_srp rdi_core; do
	check "loaded $m is ours, this build (build ID)" lab_module_is_this_build $m
done
for side in ${NK_SIDES//:/ }; do
	nk_drop ours $side
done

for side in ${NK_SIDES//:/ }; do
	i="intree $side" o="ours $side"
	lab_note "keep-alive off, ${TX_DROP_SECS} s $side drop: dm failed the path after ${FIG_FAIL[$i]} s in-tree, ${FIG_FAIL[$o]} s ours; longest I/O ${FIG_LAT[$i]} s in-tree, ${FIG_LAT[$o]} s ours; path 0 read ${FIG_BACK[$i]} s in-tree, ${FIG_BACK[$o]} s ours after the drop; fio exit ${FIG_RC[$i]} in-tree, ${FIG_RC[$o]} ours"
	check "$side: dm fails the path no later than in-tree + $NK_MARGIN s (ours ${FIG_FAIL[$o]} s, in-tree ${FIG_FAIL[$i]} s)" \
		nk_no_worse "${FIG_FAIL[$o]}" "${FIG_FAIL[$i]}"
	check "$side: longest I/O no longer than in-tree + $NK_MARGIN s (ours ${FIG_LAT[$o]} s, in-tree ${FIG_LAT[$i]} s)" \
		nk_no_worse "${FIG_LAT[$o]}" "${FIG_LAT[$i]}"
	check "$side: path 0 reads again after the drop no later than in-tree + $NK_MARGIN s (ours ${FIG_BACK[$o]} s, in-tree ${FIG_BACK[$i]} s)" \
		nk_no_worse "${FIG_BACK[$o]}" "${FIG_BACK[$i]}"
done
check "ours: no task blocked for 120 s" lab_log_lacks "blocked for more than"
check "ours unloads" sh -c "rmmod ib_srp && rmmod rdi_core"
